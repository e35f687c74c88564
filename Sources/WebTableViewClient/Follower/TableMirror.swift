import TableModel

/// The follower's copy of a table, advanced one published change at a time by
/// TableModel's own batch code, the server's: a change either applies to the
/// version just before it, or is recognised as seen, or as a gap. Public for
/// an app that reads `/changes` itself, and for the benchmark.
public struct TableMirror: Sendable {
    /// What became of one change.
    public enum Outcome: Sendable {
        /// Applied: the update to hand on.
        case applied(TableUpdate)
        /// At or below the mirror's version: already applied (a replay), skipped.
        case seen
        /// Not the next version, or refused by validation: the mirror cannot
        /// follow; fetch the table anew.
        case lost(String)
    }

    public private(set) var table: Table

    public init(_ table: Table) {
        self.table = table
    }

    public var version: Int { table.version }

    /// Applies `change` when it is the next version, and answers what became of it.
    public mutating func follow(_ change: TableChange) -> Outcome {
        guard change.version > table.version else { return .seen }
        guard change.version == table.version + 1 else {
            return .lost("change \(change.version) arrived at version \(table.version)")
        }
        let prepared: PreparedBatch
        do {
            prepared = try table.prepare(change.batch)
        } catch {
            return .lost("change \(change.version) does not apply: \(error.detail)")
        }
        table.apply(prepared)
        table.version = change.version
        return .applied(TableUpdate(version: change.version, batch: prepared.batch, table: table))
    }
}
