// What a change of a table gives every live view of it alike, worked out
// once for all of them (`OpenViews` holds one `LiveView.Change` per change):
// whether its batch is one to follow incrementally, the labels' shift, and the
// rows the batch touched as they were and are (`LiveView+Incremental.swift`).

extension LiveView {
    /// A change of a table for its live views to follow (`update(_:)`): the
    /// table's new version and the batches that made it of the one before.
    /// For a batch of row edits a view may follow incrementally, it also holds
    /// what is the same for every view, worked out once: the labels' shift
    /// (`LabelShift`) and the rows the batch touched, read once from the table
    /// before it (`TableEdit`).
    public struct Change: Sendable {
        public let table: Table
        public let batches: [Batch]
        /// The shift of the one batch's labels; nil when the batch is not
        /// one to follow incrementally (`LiveView+Incremental.swift`).
        let shift: LabelShift?
        /// The batch's row edits, read from the table at `version`.
        private var edits: (version: Int, list: [TableEdit])?

        public init(to table: Table, by batches: [Batch]) {
            self.table = table
            self.batches = batches
            shift = batches.count == 1 && LiveView.followsRowEdits(batches[0]) ? LabelShift(batches[0]) : nil
        }

        /// The batch's row edits, as read from `source`, the table at `version`.
        mutating func edits(from source: [Section], version: Int) -> [TableEdit] {
            if let edits, edits.version == version { return edits.list }
            let list = TableEdit.list(batches[0], from: source, shift: shift!)
            edits = (version, list)
            return list
        }
    }

    /// Whether `batch` edits rows alone, few enough to follow incrementally.
    public static func followsRowEdits(_ batch: Batch) -> Bool {
        batch.deleteSections.isEmpty && batch.insertSections.isEmpty && batch.reloadSections.isEmpty
            && batch.moveSections.isEmpty
            && batch.reloadRows.count + batch.deleteRows.count + batch.insertRows.count + batch.moveRows.count
                <= incrementalLimit
    }
}

/// A row a batch reloaded with a new content, inserted, deleted or moved:
/// its places in the table before and after, where it is (a reloaded row's
/// after is the shift of its before), and its content before and after (a
/// moved row keeps its content). The same for every view of the table, so
/// read once for all of them (`LiveView.Change`).
struct TableEdit: Sendable {
    let oldLabel: UInt64?
    let newLabel: UInt64?
    let oldRow: Row?
    let newRow: Row?
    /// Whether it was reloaded (not moved): it remains among the rows the
    /// batch leaves in its section, so keeps its order among them (`LabelShift`).
    let reloaded: Bool

    /// The row edits of `batch`, read in `source`, the table it applied to:
    /// reloads first (those that change the row), then deletes, inserts and moves.
    static func list(_ batch: Batch, from source: [Section], shift: LabelShift) -> [TableEdit] {
        func label(_ path: TableIndexPath) -> UInt64 { ViewLabel.of(row: path.row, section: path.section) }
        var edits: [TableEdit] = batch.reloadRows.compactMap {
            let old = source[$0.at.section].rows[$0.at.row]
            return old == $0.row ? nil : TableEdit(label($0.at), shift(label($0.at)), old, $0.row, reloaded: true)
        }
        edits += batch.deleteRows.map { TableEdit(label($0), nil, source[$0.section].rows[$0.row], nil) }
        edits += batch.insertRows.map { TableEdit(nil, label($0.at), nil, $0.row) }
        edits += batch.moveRows.map {
            let row = source[$0.from.section].rows[$0.from.row]
            return TableEdit(label($0.from), label($0.to), row, row)
        }
        return edits
    }

    private init(_ old: UInt64?, _ new: UInt64?, _ oldRow: Row?, _ newRow: Row?, reloaded: Bool = false) {
        (oldLabel, newLabel, self.oldRow, self.newRow, self.reloaded) = (old, new, oldRow, newRow, reloaded)
    }
}
