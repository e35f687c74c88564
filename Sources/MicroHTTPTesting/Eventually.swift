import Glibc

/// Polls `condition` until it holds or `timeout` (scaled, ``TestTimeouts``)
/// passes; answers whether it held. For waiting on a server's background
/// work, not for timing it.
public func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + TestTimeouts.scaled(timeout)
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            return false
        }
        usleep(2_000)
    }
    return true
}
