import Glibc

/// Race-free handling of SIGINT and SIGTERM: block them (and SIGPIPE) in
/// every thread, then wait for them on the main thread.
enum SignalWaiter {
    /// Blocks SIGINT, SIGTERM and SIGPIPE in the calling thread and in every
    /// thread it starts afterwards. Call it first thing in `main`, before
    /// starting the server.
    static func blockTerminationSignals() {
        var signals = terminationSignals()
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives and answers which one.
    static func wait() -> Int32 {
        var signals = terminationSignals()
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }

    /// Waits up to `milliseconds` for SIGINT or SIGTERM; answers which one
    /// arrived, or nil once the time is up. A wait interrupted by another
    /// signal (EINTR) goes on for the time that is left.
    static func wait(upTo milliseconds: Int) -> Int32? {
        var signals = terminationSignals()
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let (seconds, attoseconds) = left.components
            var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            let received = sigtimedwait(&signals, nil, &timeout)
            if received > 0 { return received }
            if errno != EINTR { return nil }
        }
    }

    private static func terminationSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
