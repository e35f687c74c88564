import Synchronization

/// Counts a server's requests as they begin and end, for ``HTTPMetrics``.
///
/// Each worker thread counts into a shard of its own (``PerThread``): counting
/// a request takes a lock nobody else wants and moves no cache line between
/// cores. A snapshot locks each shard in turn and merges them.
public final class HTTPMetricsRecorder: Sendable {
    /// The counts of one worker thread. Its lock is contended only by snapshots.
    private final class Shard: Sendable {
        let counts = Mutex(Counts())
    }

    private struct Counts {
        var started = 0
        var finished = 0
        var streamWrites = EventStream.Writes()
        /// Series in the order first counted, their indices, and the last one
        /// counted: a busy thread mostly counts the same series again, and
        /// comparing its key costs less than hashing it.
        var series: [(key: HTTPMetrics.SeriesKey, series: HTTPMetrics.Series)] = []
        var indices: [HTTPMetrics.SeriesKey: Int] = [:]
        var last: (key: HTTPMetrics.SeriesKey, index: Int)?

        mutating func observe(_ seconds: Double, key: HTTPMetrics.SeriesKey, route: RouteLabel?) {
            finished += 1
            let index: Int
            if let last, last.key == key {
                index = last.index
            } else if let known = indices[key] {
                index = known
            } else {
                index = series.count
                indices[key] = index
                series.append((key, HTTPMetrics.Series(route: route?.pattern ?? HTTPMetrics.unmatchedRoute)))
            }
            last = (key, index)
            series[index].series.histogram.observe(seconds)
        }
    }

    private let shards = PerThread { Shard() }
    private let openStreams = Atomic<Int>(0)

    public init() {}

    /// A request's headers have arrived.
    func begin() {
        shards.current.counts.withLock { $0.started += 1 }
    }

    /// A request has ended, answered with `status` (nil when it never was)
    /// after `seconds`.
    func end(method: HTTPMethod?, route: RouteLabel?, status: Int?, seconds: Double) {
        shards.current.counts.withLock { counts in
            guard let status else {
                counts.finished += 1
                return
            }
            let key = HTTPMetrics.SeriesKey(method: method, route: route?.id ?? -1, status: status)
            counts.observe(seconds, key: key, route: route)
        }
    }

    /// An ended stream's chunks, written by their senders.
    func count(_ writes: EventStream.Writes) {
        shards.current.counts.withLock { counts in
            counts.streamWrites.direct += writes.direct
            counts.streamWrites.batched += writes.batched
        }
    }

    /// Event streams connected now.
    func setOpenEventStreams(_ count: Int) {
        openStreams.store(count, ordering: .relaxed)
    }

    /// Requests begun and not yet ended.
    var requestsInFlight: Int {
        shards.all.reduce(0) { total, shard in total + shard.counts.withLock { $0.started - $0.finished } }
    }

    /// Every shard merged.
    public func snapshot() -> HTTPMetrics {
        var metrics = HTTPMetrics()
        metrics.openEventStreams = openStreams.load(ordering: .relaxed)
        for shard in shards.all {
            shard.counts.withLock { counts in
                metrics.requestsInFlight += counts.started - counts.finished
                metrics.eventChunksWritten.direct += counts.streamWrites.direct
                metrics.eventChunksWritten.batched += counts.streamWrites.batched
                for (key, series) in counts.series {
                    metrics.series[key, default: HTTPMetrics.Series(route: series.route)].histogram.add(
                        series.histogram)
                }
            }
        }
        return metrics
    }
}
