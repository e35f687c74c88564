import Foundation
import Testing
@testable import TableServer

/// A log out of reach (PostgreSQL down) and `Idempotency-Key`s (docs/API.md,
/// "Idempotency-Key"): a repeat of a key this server knows was made is
/// answered with the first answer, and the key with another request is 422,
/// even when the record of their group fails; a new edit is still 503
/// `storage-unavailable`, not made.
extension GroupCommitTests {
    /// Makes `edit` while the log fails its record: its answer.
    func whileTheLogFails(_ edit: () -> Edit) throws -> Result<Int, any Error> {
        log.failing.store(true, ordering: .releasing)
        let made = edit()
        try log.awaitRecord()
        log.release()
        return try made.wait()
    }

    @Test func aRepeatWhileTheLogFailsIsAnsweredAsTheFirst() throws {
        let key = IdempotentRequest(key: "k", digest: "d", madeAt: IdempotencyKeys.now())
        let first = insert(text: "a", key: key)
        try log.awaitRecord()
        log.release()
        #expect(try first.wait().get() == 1)

        let repeated = try whileTheLogFails { insert(text: "a", key: key) }
        guard case .failure(let error) = repeated, let answer = (error as? IdempotentRepeat)?.answer else {
            Issue.record("the repeat was answered \(repeated), not as the first")
            return
        }
        #expect(answer.version == 1 && answer.isKept)

        let other = IdempotentRequest(key: "k", digest: "another request", madeAt: IdempotencyKeys.now())
        let reused = try whileTheLogFails { insert(text: "b", key: other) }
        if case .failure(let error) = reused {
            #expect((error as? TableServerError)?.type == "idempotency-key-reused")
        } else {
            Issue.record("the key with another request was made")
        }

        let fresh = try whileTheLogFails { insert(text: "c") }
        if case .failure(let error) = fresh {
            #expect((error as? TableServerError)?.type == "storage-unavailable")
        } else {
            Issue.record("a new edit was made while the log failed")
        }
        #expect(try store.table("t").version == 1)
        #expect(try rowIDs() == ["a"])
    }
}
