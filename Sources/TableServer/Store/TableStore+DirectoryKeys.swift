import TableModel

/// The `Idempotency-Key`s of creates and deletes of tables (docs/API.md,
/// "Idempotency-Key"): the server's, not a table's — a create's table is not
/// there before it, and a deleted table's keys go with it. Kept as a table's
/// keys are (`IdempotencyKeys`); the log keeps them too (a create or delete
/// record carries its key; with the database, `webtableview_table_keys`).
struct DirectoryKeys: Sendable {
    /// The keys of creates and deletes that were made.
    var made = IdempotencyKeys()
    /// The keys of creates and deletes being made on this server: another
    /// request with one of them is refused (409) until that one is answered.
    var pending: Set<String> = []
}

extension TableStore {
    /// Makes a create or a delete sent with `key` at most once: a key this
    /// server, or (with a shared log) another replica, made a create or delete
    /// under throws `IdempotentRepeat` (the same request) or 422 (another), and
    /// `make` does not run; a key being made on this server is 409. `make`
    /// records the key with what it makes; a refused request is not remembered.
    func makeOnce<T>(_ key: IdempotentRequest?, _ make: () throws -> T) throws -> T {
        guard let key else { return try make() }
        try directoryKeys.withLock { keys in
            guard !keys.pending.contains(key.key) else { throw TableServerError.idempotencyKeyInUse(key.key) }
            try keys.made.check(key)
            keys.pending.insert(key.key)
        }
        defer { directoryKeys.withLock { _ = $0.pending.remove(key.key) } }
        try checkSharedKey(key)
        let made: T
        do {
            made = try make()
        } catch let error as TableServerError where error.mayBeMadeElsewhere {
            // Another replica may have made it under the same key meanwhile.
            try checkSharedKey(key)
            throw error
        }
        rememberDirectoryKey(key.changeKey())
        return made
    }

    /// Remembers the key of a create or a delete (made, or replayed from the journal).
    func rememberDirectoryKey(_ key: ChangeKey) {
        directoryKeys.withLock { $0.made.remember(key, version: 0, changes: []) }
    }

    /// Looks `key` up in a log shared with other replicas, and checks it
    /// against what it holds there.
    private func checkSharedKey(_ key: IdempotentRequest) throws {
        guard let log, let stored = try Self.storageErrors({ try log.directoryKey(key.key) }) else { return }
        try directoryKeys.withLock { keys in
            keys.made.remember(stored, version: 0, changes: [])
            try keys.made.check(key)
        }
    }
}
