import Foundation

/// The `Min-Version` request header: a version number (docs/API.md, "Replicas").
enum MinVersion {
    static func parse(_ text: String) throws -> Int {
        let trimmed = text.trimmingSpaces()
        guard let version = Int(trimmed), version >= 0, trimmed.utf8.allSatisfy(isASCIIDigit) else {
            throw TableServerError.badRequest(
                type: "bad-header", detail: "Min-Version must be a version number (a whole number from 0), not \"\(text)\"")
        }
        return version
    }
}

extension TableStore {
    /// Returns once table `id` is here at `version` or later; after `limit`,
    /// throws `notCaughtUp` (503). A table not here yet (created through
    /// another replica) is waited for too: when it is not here, or behind,
    /// the log is asked for it first (`TableLog.lookUp`), so that a table just
    /// created elsewhere is never answered 404.
    func waitForVersion(_ id: String, atLeast version: Int, upTo limit: Duration) throws {
        let deadline = ContinuousClock.now + limit
        var askedLog = log == nil
        while true {
            if let handle = try? handle(id), handle.revision.current >= version { return }
            if !askedLog, let log {
                askedLog = true
                _ = try? log.lookUp(id)
                continue
            }
            guard ContinuousClock.now < deadline else {
                throw TableServerError.notCaughtUp(table: id, version: version)
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
}
