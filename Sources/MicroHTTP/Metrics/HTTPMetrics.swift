/// Request counters and latency histograms of one server, as a snapshot.
///
/// Requests are labelled by method, route pattern (not the raw path, which
/// would grow without bound) and status. Latency runs from the request's
/// headers arriving to its response being queued.
public struct HTTPMetrics: Sendable {
    /// The route label of requests that matched no route.
    public static let unmatchedRoute = "unmatched"
    /// The method label of requests whose method the server does not route:
    /// a client's arbitrary text never becomes a label, nor a new series.
    public static let otherMethod = "other"
    /// Upper bounds of the latency buckets, in seconds.
    public static let bucketBounds: [Double] = [
        0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    /// One series: a method (nil for one the server does not route), a route
    /// (by number; -1 for no route) and a status.
    struct SeriesKey: Hashable {
        let method: HTTPMethod?
        let route: Int
        let status: Int

        var methodLabel: String {
            method?.rawValue ?? HTTPMetrics.otherMethod
        }
    }

    /// Requests of one series and their latencies.
    struct Series {
        let route: String
        var histogram = Histogram()
    }

    struct Histogram {
        /// Observations per bucket (not cumulative), plus one for +Inf.
        var buckets = [Int](repeating: 0, count: HTTPMetrics.bucketBounds.count + 1)
        var sum = 0.0
        var count = 0

        mutating func observe(_ seconds: Double) {
            let index = HTTPMetrics.bucketBounds.firstIndex { seconds <= $0 } ?? HTTPMetrics.bucketBounds.count
            buckets[index] += 1
            sum += seconds
            count += 1
        }

        mutating func add(_ other: Histogram) {
            for index in buckets.indices {
                buckets[index] += other.buckets[index]
            }
            sum += other.sum
            count += other.count
        }
    }

    var series: [SeriesKey: Series] = [:]
    /// Requests received and not yet completed (open event streams included).
    public internal(set) var requestsInFlight = 0
    /// Event streams connected now.
    public internal(set) var openEventStreams = 0
    /// Chunks of events the socket took straight from their sender, by way
    /// (a `send()` of the stream's own, or a batch through io_uring), over
    /// the streams that have ended.
    public internal(set) var eventChunksWritten = EventStream.Writes()

    /// Requests answered with `status` on `route` (a pattern, or ``unmatchedRoute``);
    /// a nil `method` counts those of ``otherMethod``.
    public func count(method: HTTPMethod?, route: String, status: Int) -> Int {
        series.reduce(0) { total, entry in
            entry.key.method == method && entry.key.status == status && entry.value.route == route
                ? total + entry.value.histogram.count : total
        }
    }

    /// Requests answered, over every label.
    public var totalRequests: Int {
        series.values.reduce(0) { $0 + $1.histogram.count }
    }

    /// A method and a route pattern: the labels of one latency histogram.
    private struct RouteKey: Hashable {
        let method: String
        let route: String
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        var text = """
            # HELP http_requests_total Requests answered, by method, route and status.
            # TYPE http_requests_total counter

            """
        let counted = series.map {
            (method: $0.key.methodLabel, route: $0.value.route, status: $0.key.status, histogram: $0.value.histogram)
        }
        for entry in counted.sorted(by: { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }) {
            text +=
                "http_requests_total{method=\"\(entry.method)\",route=\"\(Self.escape(entry.route))\",status=\"\(entry.status)\"} \(entry.histogram.count)\n"
        }
        text += """
            # HELP http_request_duration_seconds Time from request headers to response queued.
            # TYPE http_request_duration_seconds histogram

            """
        var latencies: [RouteKey: Histogram] = [:]
        for entry in counted {
            latencies[RouteKey(method: entry.method, route: entry.route), default: Histogram()].add(entry.histogram)
        }
        for (key, histogram) in latencies.sorted(by: { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) })
        {
            let labels = "method=\"\(key.method)\",route=\"\(Self.escape(key.route))\""
            var cumulative = 0
            for (bound, count) in zip(Self.bucketBounds.map { "\($0)" } + ["+Inf"], histogram.buckets) {
                cumulative += count
                text += "http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "http_request_duration_seconds_sum{\(labels)} \(histogram.sum)\n"
            text += "http_request_duration_seconds_count{\(labels)} \(histogram.count)\n"
        }
        text += """
            # HELP http_requests_in_flight Requests received and not yet completed.
            # TYPE http_requests_in_flight gauge
            http_requests_in_flight \(requestsInFlight)
            # HELP http_event_streams_open Event streams connected now.
            # TYPE http_event_streams_open gauge
            http_event_streams_open \(openEventStreams)
            # HELP http_event_chunks_written_total Chunks of events written to the socket by their sender, by way, over ended streams.
            # TYPE http_event_chunks_written_total counter
            http_event_chunks_written_total{way="direct"} \(eventChunksWritten.direct)
            http_event_chunks_written_total{way="batch"} \(eventChunksWritten.batched)

            """
        return text
    }

    private static func escape(_ label: String) -> String {
        var escaped = ""
        for character in label {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
