import Dispatch
import TableModel

extension Journal {
    /// Takes a snapshot now, on the background queue, and waits for it: moves to a
    /// new segment, writes every table, and removes what the snapshot makes obsolete.
    public func snapshot() throws(JournalError) {
        let result = background.sync { () -> Result<Void, JournalError> in
            writer.withLock { $0.snapshotRunning = true }
            defer { writer.withLock { $0.snapshotRunning = false } }
            return Result { () throws(JournalError) in try writeSnapshot() }
        }
        try result.get()
    }

    /// True, and marks a snapshot as running, when one is due and none runs.
    func claimSnapshot(_ state: inout Writer) -> Bool {
        guard state.snapshotSource != nil, !state.snapshotRunning, state.file != nil,
            state.recordsSinceSnapshot >= options.snapshotEveryRecords
                || state.bytesSinceSnapshot >= options.snapshotEveryBytes
        else { return false }
        state.snapshotRunning = true
        return true
    }

    /// A background snapshot: failures are reported, and the journal simply grows
    /// until the next attempt.
    func takeSnapshot() {
        defer { writer.withLock { $0.snapshotRunning = false } }
        guard writer.withLock({ $0.file != nil }) else { return }
        do throws(JournalError) {
            try writeSnapshot()
        } catch {
            report(JournalNotice(.warning, "journal: snapshot failed, the journal keeps growing: \(error.message)"))
        }
    }

    /// 1. Moves appends to a new segment N. 2. Copies every table (each under its
    /// own lock, through the snapshot source). 3. Writes `snapshot-N` atomically.
    /// 4. Removes the segments and snapshots before N.
    private func writeSnapshot() throws(JournalError) {
        guard let source = writer.withLock({ $0.snapshotSource }) else {
            throw JournalError(.unavailable, "no snapshot before start(snapshotSource:)")
        }
        let segment = try rotate()
        let tables = source()
        let (listed, keys) = writer.withLock { state in
            state.directoryKeys = JournalDirectoryKeys.kept(state.directoryKeys)
            return (state.nextSequence - 1, state.directoryKeys)
        }
        let snapshot = JournalSnapshot(segment: segment, listedSequence: listed, tables: tables, directoryKeys: keys)
        let size = try snapshot.write(in: directory)
        let listing = try directory.list()
        for number in listing.segments where number < segment { try JournalFile.remove(directory.segmentPath(number)) }
        for number in listing.snapshots where number < segment {
            try JournalFile.remove(directory.snapshotPath(number))
        }
        try JournalFile.syncDirectory(directory.path)
        report(JournalNotice(.info, "journal: snapshot \(segment) written, \(tables.count) tables, \(size) bytes"))
    }

    /// Flushes and closes the current segment and opens the next; answers its number.
    private func rotate() throws(JournalError) -> Int {
        try flusher.withLock { (flushed) throws(JournalError) in
            try writer.withLock { (state) throws(JournalError) in
                guard let file = state.file else { throw Self.closed }
                if let failure = state.failure { throw failure }
                do throws(JournalError) {
                    try file.sync()
                } catch {
                    state.failure = JournalError(.unavailable, "journal flush failed: \(error.message)")
                    throw error
                }
                flushed = state.appended
                let next = state.segment + 1
                state.file = try Self.createSegment(next, in: directory)
                file.close()
                state.segment = next
                state.segmentSize = JournalFrame.segmentMagic.count
                state.recordsSinceSnapshot = 0
                state.bytesSinceSnapshot = 0
                return next
            }
        }
    }

    /// With `.interval`: flushes every `options.flushInterval` while the journal is open.
    func scheduleIntervalFlush() {
        let (seconds, attoseconds) = options.flushInterval.components
        let nanoseconds = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        ticker.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            let (isOpen, appended) = writer.withLock { ($0.file != nil && $0.failure == nil, $0.appended) }
            guard isOpen else { return }
            do throws(JournalError) {
                try flush(upTo: appended)
            } catch {
                report(JournalNotice(.error, "journal: interval flush failed: \(error.message)"))
            }
            scheduleIntervalFlush()
        }
    }
}
