/// How often and how patiently a call is tried again: after a `503` (waiting
/// what its `Retry-After` says, at most `maxDelay`) and after a connection that
/// failed or was cut before the answer (waiting a doubling delay with jitter).
/// The follower's reconnections use the same doubling delay, without a limit on attempts.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included; 1 retries nothing.
    public var attempts: Int
    public var initialDelay: Duration
    public var maxDelay: Duration

    public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// The wait before try `attempt + 1` after try `attempt` (from 1) failed without
    /// an answer: `initialDelay` doubled each time, at most `maxDelay`, and a random
    /// half of it taken off so that many clients do not come back at once.
    public func delay(after attempt: Int) -> Duration {
        let doubled = initialDelay * (1 << min(max(attempt - 1, 0), 20))
        let capped = min(doubled, maxDelay)
        return capped * Double.random(in: 0.5...1.0)
    }

    /// The wait a `503` asks for, at most `maxDelay`; the doubling delay when it names none.
    func delay(after attempt: Int, retryAfter: Duration?) -> Duration {
        guard let retryAfter else { return delay(after: attempt) }
        return min(retryAfter, maxDelay)
    }
}
