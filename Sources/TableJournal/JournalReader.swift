/// Reads a journal directory at start-up: the latest snapshot, then every segment
/// from it on, checking each record's checksum and that sequence numbers follow
/// one another.
///
/// Damage policy: damage at the end of the last segment, with no intact record
/// after it, is a torn tail — the write of the last record was cut short by a
/// crash, and that record was never acknowledged — so it is dropped, the segment
/// truncated, and a warning reported. Damage anywhere else (an earlier segment,
/// or with intact records after it, or a damaged snapshot) means acknowledged
/// changes are lost or unreadable: recovery refuses, naming the file and offset.
///
/// A reader that does not `repair` (a tool reading a journal a server may be
/// writing) changes no file: it drops a torn tail without cutting it off, and
/// leaves older segments, snapshots and temporary files where they are.
struct JournalReader {
    let directory: JournalDirectory
    var repairs = true

    /// What the directory holds, and the number of the segment to write next.
    func recover() throws(JournalError) -> (recovery: JournalRecovery, nextSegment: Int) {
        let listing = try directory.list()
        if repairs { for path in listing.temporary { try JournalFile.remove(path) } }
        var recovery = JournalRecovery()
        var base = 1
        if let latest = listing.snapshots.last {
            let snapshot = try JournalSnapshot.read(directory.snapshotPath(latest))
            guard snapshot.segment == latest else {
                throw JournalError(
                    .damaged, "snapshot \(directory.snapshotPath(latest)) names segment \(snapshot.segment)")
            }
            recovery.hasSnapshot = true
            recovery.snapshotTables = snapshot.tables
            recovery.snapshotDirectoryKeys = snapshot.directoryKeys
            recovery.listedSequence = snapshot.listedSequence
            base = latest
        }
        let segments = listing.segments.filter { $0 >= base }
        if let first = segments.first, first != base {
            throw JournalError(
                .damaged, "\(directory.segmentPath(base)) is missing: the records before segment \(first) are lost")
        }
        for (index, number) in segments.enumerated() where number != base + index {
            throw JournalError(.damaged, "\(directory.segmentPath(base + index)) is missing")
        }
        var lastSequence: UInt64?
        for number in segments {
            try read(segment: number, isLast: number == segments.last, into: &recovery, lastSequence: &lastSequence)
        }
        if repairs {
            for number in listing.segments where number < base { try JournalFile.remove(directory.segmentPath(number)) }
            for number in listing.snapshots.dropLast() { try JournalFile.remove(directory.snapshotPath(number)) }
        }
        return (recovery, (segments.last ?? base - 1) + 1)
    }

    private func read(
        segment number: Int, isLast: Bool, into recovery: inout JournalRecovery, lastSequence: inout UInt64?
    ) throws(JournalError) {
        let path = directory.segmentPath(number)
        let bytes = try JournalFile.read(path)
        let magic = JournalFrame.segmentMagic
        guard bytes.starts(with: magic) else {
            // A segment is created and flushed with its magic before any record goes
            // into it, so a short or foreign start is damage, except a last segment
            // whose creation a crash cut short.
            guard isLast, bytes.count < magic.count, magic.starts(with: bytes) else {
                throw JournalError(.damaged, "\(path) is not a journal segment")
            }
            recovery.warnings.append("\(path): segment header cut short; rewritten as an empty segment")
            guard repairs else { return }
            let file = try JournalFile.openForWriting(path)
            defer { file.close() }
            try file.truncate(to: 0)
            try file.write(magic)
            try file.sync()
            return
        }
        var offset = magic.count
        while offset < bytes.count {
            switch JournalFrame.read(bytes, at: offset) {
            case .success(let frame):
                if let last = lastSequence, frame.sequence != last + 1 {
                    throw JournalError(
                        .damaged, "\(path) at byte \(offset): record \(frame.sequence) follows record \(last)")
                }
                let record: JournalRecord
                do throws(JournalError) {
                    record = try JournalRecord(payload: bytes[frame.payload])
                } catch {
                    throw JournalError(.damaged, "\(path) at byte \(offset): \(error.message)")
                }
                recovery.records.append(SequencedRecord(sequence: frame.sequence, record: record))
                recovery.recordBytes += frame.end - offset
                lastSequence = frame.sequence
                offset = frame.end
            case .failure(let damage):
                let after = lastSequence ?? recovery.listedSequence
                if isLast, JournalFrame.nextIntactFrame(in: bytes, after: offset, lastSequence: after) == nil {
                    recovery.warnings.append(
                        "\(path): dropped a torn record at byte \(offset) (\(damage.message)), "
                            + "\(bytes.count - offset) bytes; it was never acknowledged")
                    if repairs { try truncate(path, to: offset) }
                    return
                }
                let place = isLast ? "intact records follow it" : "a later segment follows it"
                throw JournalError(
                    .damaged,
                    "\(path) at byte \(offset): \(damage.message), and \(place); "
                        + "refusing to start without the records it held (see docs/RELIABILITY.md, Durability)")
            }
        }
    }

    private func truncate(_ path: String, to size: Int) throws(JournalError) {
        let file = try JournalFile.openForWriting(path)
        defer { file.close() }
        try file.truncate(to: size)
        try file.sync()
    }
}
