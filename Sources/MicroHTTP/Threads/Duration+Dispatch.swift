import Dispatch

extension Duration {
    /// Whole nanoseconds, as `DispatchTime` counts them; 0 for a negative
    /// duration. For the package's timers (heartbeat, retries, delivery pacing).
    package var dispatchNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// The same as an interval for Dispatch's deadlines and timers.
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: dispatchNanoseconds))
    }
}
