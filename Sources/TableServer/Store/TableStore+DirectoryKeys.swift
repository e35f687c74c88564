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
        try claim(key)
        defer { release(key) }
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

    /// `makeOnce` for a make answered later (a delete, `make` calling its
    /// completion once): `answer` is called once, as `makeOnce` answers. A
    /// key in use is refused at once; asking a shared log for the key
    /// (`TableLog.directoryKey`) runs on the store's one look-up thread, so
    /// that no thread of the caller's waits for it.
    func makeOnce(
        _ key: IdempotentRequest?,
        _ make: @escaping @Sendable (_ made: @escaping @Sendable (Result<EditResult, any Error>) -> Void) -> Void,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) {
        guard let key else { return make(answer) }
        do {
            try claim(key)
        } catch {
            return answer(.failure(error))
        }
        let settle: @Sendable (Result<EditResult, any Error>) -> Void = { [self] result in
            release(key)
            answer(result)
        }
        let made: @Sendable (Result<EditResult, any Error>) -> Void = { [self] result in
            switch result {
            case .success:
                rememberDirectoryKey(key.changeKey())
                settle(result)
            case .failure(let error as TableServerError) where error.mayBeMadeElsewhere:
                // Another replica may have made it under the same key meanwhile.
                askingLog { [self] in
                    do {
                        try checkSharedKey(key)
                        settle(.failure(error))
                    } catch {
                        settle(.failure(error))
                    }
                }
            case .failure:
                settle(result)
            }
        }
        askingLog { [self] in
            do {
                try checkSharedKey(key)
            } catch {
                return settle(.failure(error))
            }
            make(made)
        }
    }

    /// Runs `body`, which may ask the log, on the store's one look-up thread
    /// when there is a log, at once otherwise.
    private func askingLog(_ body: @escaping @Sendable () -> Void) {
        guard log != nil else { return body() }
        versionWaiters.lookUp(body)
    }

    /// Marks `key` as being made on this server: refused 409 while another
    /// request with it is, and as `IdempotencyKeys.check` says when a create or
    /// delete was made under it.
    private func claim(_ key: IdempotentRequest) throws {
        try directoryKeys.withLock { keys in
            guard !keys.pending.contains(key.key) else { throw TableServerError.idempotencyKeyInUse(key.key) }
            try keys.made.check(key)
            keys.pending.insert(key.key)
        }
    }

    /// `key`'s request was answered: another may be made with it.
    private func release(_ key: IdempotentRequest) {
        directoryKeys.withLock { _ = $0.pending.remove(key.key) }
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
