import Glibc

/// CPU time of the calling thread, in nanoseconds: steadier than wall time on a
/// shared machine, and what a single-threaded model operation costs.
func threadCPUNanoseconds() -> Int {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return spec.tv_sec * 1_000_000_000 + spec.tv_nsec
}

/// Runs `body` and answers the thread CPU time it took, in nanoseconds.
func measure(_ body: () -> Void) -> Int {
    let start = threadCPUNanoseconds()
    body()
    return threadCPUNanoseconds() - start
}

/// A small deterministic generator, so every run makes the same edits.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Prints one result line the bench driver reads: `name key=value ...`.
func report(_ name: String, _ values: [(String, Int)]) {
    print(([name] + values.map { "\($0.0)=\($0.1)" }).joined(separator: " "))
}
