import ArgumentParser
import Foundation
import TableDatabase
import TableJournal
import TableModel

/// `webtableview audit TABLE --journal DIR` (or `--database URL`): prints a
/// table's audit trail, one line a change: its version, when (for a change
/// made under an `Idempotency-Key`), who (`sub`), and what it did
/// (docs/ACCESS.md, "Audit").
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a table's audit trail: version, time, actor and what changed, one line a change.",
        discussion: """
            Reads the journal without changing it (a server may be writing it), or the database the \
            replicas share. Only the changes the log still holds are listed: a journal keeps those \
            since its latest snapshot, the database the last --history changes of each table and more. \
            Columns are tab-separated; "-" stands for a time or an actor that was not recorded.
            """)

    @Argument(help: "The table's id.")
    var table: String

    @Option(help: "Journal directory of the server (serve --journal).")
    var journal: String?

    @Option(help: "PostgreSQL database the replicas share (a libpq URL or conninfo).")
    var database: String?

    func validate() throws {
        guard (journal == nil) != (database == nil) else {
            throw ArgumentParser.ValidationError("give one of --journal DIR or --database URL")
        }
    }

    func run() throws {
        let lines = try trail()
        guard !lines.isEmpty else {
            FileHandle.standardError.write(Data("no change of table \"\(table)\" is recorded\n".utf8))
            throw ExitCode(1)
        }
        for line in lines { print(line) }
    }

    /// The trail's lines, oldest first.
    func trail() throws -> [String] {
        let entries: [AuditEntry]
        if let journal {
            entries = try Journal.read(directory: journal).auditTrail(of: table)
        } else {
            entries = try databaseTrail(url: database ?? "")
        }
        return entries.map(Self.line)
    }

    /// The table's changes the database still holds; the first entry says
    /// so when older ones were trimmed.
    private func databaseTrail(url: String) throws -> [AuditEntry] {
        var options = DatabaseOptions(url: url)
        options.connections = 1
        let database = try TableDatabase(options: options)
        guard let head = try database.head(of: table) else { return [] }
        let changes = try database.changes(of: head.incarnation, after: 0)
        var entries: [AuditEntry] = []
        if let first = changes.first?.version, first > 1 {
            entries.append(AuditEntry(version: first - 1, what: "earlier changes are no longer kept"))
        }
        for stored in changes {
            let change = try RecordedDecoding.change(from: RecordedDecoding.parser.parse(stored.json[...]))
            entries.append(
                AuditEntry(version: change.version, batch: change.batch, key: change.key, actor: change.actor))
        }
        return entries
    }

    /// `version<TAB>time<TAB>actor<TAB>what`.
    static func line(_ entry: AuditEntry) -> String {
        let time = entry.madeAt.map { Date(timeIntervalSince1970: TimeInterval($0)).ISO8601Format() } ?? "-"
        return "\(entry.version)\t\(time)\t\(entry.actor ?? "-")\t\(entry.what)"
    }
}
