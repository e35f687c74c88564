import Glibc
import Synchronization

/// One shard per thread that asks for one, found through a thread-specific key.
///
/// What a worker thread counts or keeps for its requests goes into its own
/// shard, so the request path contends for no lock and moves no cache line
/// between cores. A shard that other threads read through ``all`` guards its
/// state with a `Mutex` that only its own thread takes on the request path; a
/// shard nobody reads through ``all`` is confined to its thread and needs none.
final class PerThread<Shard: AnyObject & Sendable>: Sendable {
    private let key: pthread_key_t
    private let shards = Mutex<[Shard]>([])
    private let makeShard: @Sendable () -> Shard

    init(_ makeShard: @escaping @Sendable () -> Shard) {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "out of thread-specific keys")
        self.key = key
        self.makeShard = makeShard
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's shard, made on its first call.
    var current: Shard {
        if let stored = pthread_getspecific(key) {
            return Unmanaged<Shard>.fromOpaque(stored).takeUnretainedValue()
        }
        let shard = makeShard()
        shards.withLock { $0.append(shard) }
        // Unretained: `shards` holds it for as long as this object lives, and
        // the key dies with this object.
        pthread_setspecific(key, Unmanaged.passUnretained(shard).toOpaque())
        return shard
    }

    /// Every shard made so far.
    var all: [Shard] {
        shards.withLock { $0 }
    }
}
