/// When the journal asks the operating system to put appended records on the disk.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// Before the change is answered: an acknowledged change survives a power cut.
    /// Appends from concurrent requests share one flush (group commit).
    case always
    /// Every `JournalOptions.flushInterval`: a power cut may lose the last interval's
    /// changes; a crash of the process alone loses nothing.
    case interval
    /// Never (the kernel writes back when it likes): as `interval`, with a longer window.
    case never
}

/// Where the journal lives and how it flushes and snapshots.
public struct JournalOptions: Sendable {
    /// The journal's folder, created when missing.
    public var directory: String
    public var fsync: FsyncPolicy = .always
    /// How often `.interval` flushes.
    public var flushInterval: Duration = .seconds(1)
    /// A snapshot is taken in the background after this many records…
    public var snapshotEveryRecords = 10_000
    /// …or this many bytes of records, whichever comes first.
    public var snapshotEveryBytes = 64 << 20

    public init(directory: String) {
        self.directory = directory
    }
}

/// Something the journal reports from its background work (snapshots, interval flushes).
public struct JournalNotice: Sendable, CustomStringConvertible {
    /// How much an operator should care.
    public enum Level: Sendable {
        case info, warning, error
    }

    public var level: Level
    public var message: String

    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    public var description: String { message }
}
