import Dispatch
import Synchronization
import TableModel
@testable import TableServer
import TableServerTesting

/// What an edit made: the table's version after it, the batch as applied
/// (normalised), and `{"version", "batch"}` as `/changes` publishes it and the
/// edit answers it.
struct AppliedEdit: Sendable {
    var version: Int
    var batch: Batch
    var json: [UInt8]
}

/// The store's edits as these tests make them: on the calling thread, which
/// waits for the answer the store calls back with (a route never waits: its
/// answer is deferred instead).
extension TableStore {
    /// `edit`, waiting for its answer.
    func edit(_ id: String, key: IdempotentRequest? = nil, _ stage: @escaping @Sendable (Table) throws -> StagedEdit)
        throws -> EditResult
    {
        try Self.waiting { edit(id, key: key, stage, answer: $0) }
    }

    /// Applies one batch as one version step, waiting for its answer.
    @discardableResult
    func apply(
        _ id: String, ifMatch: String?, key: IdempotentRequest? = nil,
        _ makeBatch: @escaping @Sendable (Table) throws -> Batch
    ) throws -> AppliedEdit {
        let result = try edit(id, key: key, Self.batchStage(ifMatch: ifMatch, makeBatch))
        return AppliedEdit(version: result.table.version, batch: result.batch, json: result.json)
    }

    /// Deletes a table, waiting for the answer.
    func delete(_ id: String, ifMatch: String?, key: IdempotentRequest? = nil) throws {
        _ = try Self.waiting { delete(id, ifMatch: ifMatch, key: key, answer: $0) }
    }

    private static func waiting(
        _ start: (@escaping @Sendable (Result<EditResult, any Error>) -> Void) -> Void
    ) throws -> EditResult {
        let outcome = Mutex<Result<EditResult, any Error>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            answered.signal()
        }
        answered.wait()
        return try outcome.withLock { $0! }.get()
    }
}
