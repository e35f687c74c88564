import TableModel

/// The follower's copy of a table or of a view of one, advanced one published
/// change at a time by TableModel's own batch code, the server's: a change
/// either applies to the mirror's version, or is recognised as seen, or as a
/// gap. Public for an app that reads `/changes` itself, and for the benchmark.
public struct TableMirror: Sendable {
    /// What became of one change.
    public enum Outcome: Sendable {
        /// Applied: the updates to hand on, in order — one for a table's change,
        /// one a step for a view's (`ViewChange`).
        case applied([TableUpdate])
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

    /// Applies a table's or a view's change.
    mutating func follow(_ change: FollowedChange) -> Outcome {
        switch change {
        case .table(let change): follow(change)
        case .view(let change): follow(change)
        }
    }

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
        return .applied([TableUpdate(version: change.version, batch: prepared.batch, table: table)])
    }

    /// Applies a view's `change` when it applies to the mirror's version (from
    /// its `since` up to the version before it): each step in turn, each an
    /// update of the change's version. Nothing is applied unless every step is.
    public mutating func follow(_ change: ViewChange) -> Outcome {
        guard change.version > table.version else { return .seen }
        guard change.since <= table.version else {
            return .lost("view change \(change.version) since \(change.since) arrived at version \(table.version)")
        }
        var next = table
        var updates: [TableUpdate] = []
        for batch in change.steps {
            let prepared: PreparedBatch
            do {
                prepared = try next.prepare(batch)
            } catch {
                return .lost("view change \(change.version) does not apply: \(error.detail)")
            }
            next.apply(prepared)
            next.version = change.version
            updates.append(TableUpdate(version: change.version, batch: prepared.batch, table: next))
        }
        table = next
        return .applied(updates)
    }
}

/// A change from an event stream: a table's, or a view's.
enum FollowedChange {
    case table(TableChange)
    case view(ViewChange)
}
