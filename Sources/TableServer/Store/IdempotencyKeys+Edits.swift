import TableJournal
import TableModel

// Idempotency-Keys in the store's edits: checked when staged, answered
// through an outage, remembered once made, logged with the last change
// (docs/API.md, "Idempotency-Key").

extension QueuedEdit {
    /// What its key made of it when staged, which stands whatever the log
    /// answers: a repeat of a key this server knows was made (answered with
    /// the first answer), or the key with another request (422). The keys
    /// remembered are of edits made durable, so a repeat queued while the
    /// log is out of reach is answered as the first time, not 503
    /// "not made" (docs/API.md, "Idempotency-Key").
    var keyAnswer: (any Error)? {
        guard case .failure(let error) = staged else { return nil }
        if error is IdempotentRepeat { return error }
        if case TableServerError.idempotencyKeyReused = error { return error }
        return nil
    }
}

extension TableHandle.State {
    /// `keys.check(request)`, a repeat's dropped answer taken again from the
    /// change history (``restoringAnswer(_:)``).
    func checkKey(_ request: IdempotentRequest) throws {
        do { try keys.check(request) } catch { throw restoringAnswer(error) }
    }

    /// `error`, or, for a repeat whose answer was dropped for the byte budget,
    /// that repeat with its answer taken again from the change history while
    /// it still holds the edit's changes: the same bytes the first answer carried.
    func restoringAnswer(_ error: any Error) -> any Error {
        guard var repeated = error as? IdempotentRepeat, !repeated.answer.isKept else { return error }
        let answer = repeated.answer
        let first = answer.firstVersion ?? answer.version
        guard let changes = log.changes(after: first - 1, through: answer.version, current: table.version) else {
            return error
        }
        repeated.answer.changes = changes.map(\.json)
        return repeated
    }

    /// Remembers the key of a change just replayed or followed from the log
    /// and published as `last` (for a snapshot `PUT`, with the changes before
    /// it, when the change log still holds them; else with its version only).
    mutating func rememberLogged(_ key: ChangeKey, last: Change) {
        var changes = [last.json]
        if let first = key.firstVersion {
            changes = log.changes(after: first - 1, current: table.version)?.map(\.json) ?? []
        }
        keys.remember(key, version: last.version, changes: changes)
    }

    /// Remembers the keys a snapshot kept (journal or database).
    mutating func rememberSnapshotKeys(_ stored: [SnapshotKey]) {
        for entry in stored { keys.remember(entry.key, version: entry.version, changes: entry.changes) }
    }

    /// Remembers the key of an edit this server made (`staged`, made as `result`).
    mutating func remember(_ key: IdempotentRequest?, of staged: StagedEdit, made result: EditResult) {
        guard let key, let first = result.changes.first, let last = result.changes.last else { return }
        let firstVersion = if case .steps = staged { first.version } else { Int?.none }
        keys.remember(
            key.key,
            IdempotencyKeys.Answer(
                digest: key.digest, madeAt: key.madeAt, version: last.version, changes: result.changes.map(\.json),
                firstVersion: firstVersion))
    }
}

extension StagedEdit {
    /// What the log records for it, the last change (or the deletion)
    /// carrying `key` (`ChangeKey`), and every change its `actor`
    /// (`ChangeActor`) when known.
    func logged(under key: IdempotentRequest?, actor: String?) -> LoggedEdit {
        if case .deletion = self { return .deletion(key?.changeKey()) }
        guard case .changes(var changes) = logged, let last = changes.indices.last else { return logged }
        if let key {
            let firstVersion: Int? = if case .steps(let steps) = self { steps.first?.table.version } else { nil }
            changes[last] = key.changeKey(firstVersion: firstVersion).appended(to: changes[last])
        }
        if let actor { changes = changes.map { ChangeActor.appending(actor, to: $0) } }
        return .changes(changes)
    }
}
