/// Edits by id into one index batch: how a diffable data source's snapshot
/// edits become `performBatchUpdates`. docs/API.md, "Edits by id", is the
/// contract; this is how it is kept.
///
/// ## Rules
///
/// 1. The edits apply in order, each to the table as the edits before it left
///    it (as `NSDiffableDataSourceSnapshot`'s methods do). Every id an edit
///    names — the row or section it edits, or the anchor it is placed before or
///    after — must be in the table at that point, or the batch is refused
///    (`unknown-id`); an inserted id must not be (`duplicate-id`), nor appear
///    twice in one list. Inserted rows and sections need ids (`missing-id`);
///    rows without an id are left where they are and can be neither named nor
///    used as anchors. Nothing is changed until every edit has been checked.
/// 2. The batch published is the difference between the table before and the
///    working copy after, in index terms:
///    - a section of the table that is gone is a `deleteSections`; a new one an
///      `insertSections` with its final rows;
///    - sections of the table that stay keep their place when they are in one
///      longest increasing run of old positions among those no edit moved, or
///      when a moved one still falls between its kept neighbours; the others
///      are `moveSections` (so a move publishes the section moved, and a move
///      back publishes nothing);
///    - a reloaded section is a `reloadSections` with its final rows, or, when
///      it also moves, a delete and an insert (UIKit reloads and moves a section
///      in one batch no more than a row): the row edits inside it are folded in;
///    - inside a section that stays (moved or not, not reloaded), rows work the
///      same way: new rows are inserts, rows gone are deletes, rows of the same
///      section outside such a run and rows from another such
///      section are `moveRows`, reloaded rows are `reloadRows` — or a delete
///      plus an insert when they also move — and a row that comes out of a
///      deleted or reloaded section is an insert, since UIKit moves no row out of
///      a section it replaces.
/// 3. The result goes through `Table.apply(_:)` like every other batch: it is
///    validated, journalled and published as an index batch. Edits that cancel
///    out give an empty batch, which changes nothing.
///
/// ## Complexity
///
/// With n rows in the table, k edits, e ids named and m rows in the sections
/// the row edits touch: one pass over the table to find the named row ids,
/// O(n), skipped when no named id is in the table (appending new rows to a new
/// section costs O(e)); a touched section is copied into a list of slots once,
/// O(m); each named row is found in its section by a linear search, O(k·m); the
/// difference costs O(s log s + m log m) for s sections. The table keeps no map
/// from id to position (positions shift with every edit), which is what the
/// linear parts pay for.
struct IdentifiedTranslation {
    /// A row of the working copy: where it came from (nil when inserted) and its
    /// content when inserted or reloaded.
    struct RowSlot {
        var id: String?
        var origin: TableIndexPath?
        var content: Row?
        /// Named by a `moveItem`.
        var isMoved = false
    }

    /// A section of the working copy. `rows` is nil while no edit has touched
    /// them: they are the rows of the section at `origin`.
    struct SectionSlot {
        var origin: Int?
        /// Header, footer, index title and id; its `rows` are not used.
        var content: Section
        var isReloaded = false
        /// Named by a `moveSection`.
        var isMoved = false
        var rows: [RowSlot]?
    }

    let table: Table
    /// Every section ever in the working copy, by key; keys below
    /// `table.sections.count` are the table's sections, at their positions.
    private var slots: [SectionSlot]
    /// The keys of the sections in the working copy, in order.
    private var order: [Int]
    /// The section key of every section id in the working copy.
    private var sectionKeys: [String: Int] = [:]
    /// The section key of every row id that the edits name and that is in the
    /// working copy.
    private var rowKeys: [String: Int] = [:]

    init(table: Table, namedRowIDs: Set<String>) {
        self.table = table
        slots = table.sections.enumerated().map { SectionSlot(origin: $0, content: $1) }
        order = Array(table.sections.indices)
        for (index, section) in table.sections.enumerated() {
            if let id = section.id { sectionKeys[id] = index }
        }
        var remaining = namedRowIDs.filter(table.ids.rowIDs.contains).count
        guard remaining > 0 else { return }
        search: for (index, section) in table.sections.enumerated() {
            for row in section.rows {
                guard let id = row.id, namedRowIDs.contains(id) else { continue }
                rowKeys[id] = index
                remaining -= 1
                if remaining == 0 { break search }
            }
        }
    }

    // MARK: Edits

    mutating func perform(_ edit: IdentifiedEdit) throws(BatchError) {
        switch edit {
        case .insertItems(let rows, let place):
            var inserted = Set<String>()
            for row in rows {
                guard let id = row.id else { throw .itemWithoutID("insert") }
                guard inserted.insert(id).inserted else { throw .itemNamedTwice(id, in: "insertItems") }
                try requireNew(item: id, "insert item")
            }
            let (key, position) = try resolve(place, "insert items")
            slots[key].rows!.insert(contentsOf: rows.map { RowSlot(id: $0.id, content: $0) }, at: position)
            for row in rows { rowKeys[row.id!] = key }
        case .deleteItems(let ids):
            try requireUnique(ids) { .itemNamedTwice($0, in: "deleteItems") }
            for id in ids {
                let key = try itemKey(id, "delete item")
                slots[key].rows!.remove(at: position(of: id, in: key))
                rowKeys[id] = nil
            }
        case .moveItem(let id, let place):
            let from = try itemKey(id, "move item")
            switch place {
            case .before(id), .after(id): throw .itemMovedRelativeToItself(id)
            default: break
            }
            var slot = slots[from].rows!.remove(at: position(of: id, in: from))
            slot.isMoved = true
            let (key, position) = try resolve(place, "move an item")
            slots[key].rows!.insert(slot, at: position)
            rowKeys[id] = key
        case .reloadItems(let rows), .reconfigureItems(let rows):
            let list = if case .reloadItems = edit { "reloadItems" } else { "reconfigureItems" }
            try requireUnique(rows.map { $0.id ?? "" }) { .itemNamedTwice($0, in: list) }
            for row in rows {
                guard let id = row.id else { throw .itemWithoutID("reload") }
                let key = try itemKey(id, "reload item")
                slots[key].rows![position(of: id, in: key)].content = row
            }
        case .insertSections(let sections, let place):
            try insertSections(sections, place)
        case .deleteSections(let ids):
            try requireUnique(ids) { .sectionNamedTwice($0, in: "deleteSections") }
            for id in ids {
                let key = try sectionKey(id, "delete section")
                order.remove(at: order.firstIndex(of: key)!)
                sectionKeys[id] = nil
                rowKeys = rowKeys.filter { $0.value != key }
            }
        case .moveSection(let id, let place):
            let key = try sectionKey(id, "move section")
            switch place {
            case .before(id), .after(id): throw .sectionMovedRelativeToItself(id)
            default: break
            }
            order.remove(at: order.firstIndex(of: key)!)
            order.insert(key, at: try resolve(place, "move a section"))
            slots[key].isMoved = true
        case .reloadSections(let sections):
            try requireUnique(sections.map { $0.id ?? "" }) { .sectionNamedTwice($0, in: "reloadSections") }
            for section in sections {
                guard let id = section.id else { throw .sectionWithoutID("reload") }
                let key = try sectionKey(id, "reload section")
                slots[key].content = section
                slots[key].isReloaded = true
            }
        }
    }

    private mutating func insertSections(_ sections: [Section], _ place: IdentifiedEdit.SectionPlace) throws(BatchError)
    {
        var position = try resolve(place, "insert sections")
        let firstInserted = slots.count
        for section in sections {
            guard let id = section.id else { throw .sectionWithoutID("insert") }
            if let key = sectionKeys[id] {
                guard key < firstInserted else { throw .sectionNamedTwice(id, in: "insertSections") }
                throw .sectionAlreadyInTable(id, at: order.firstIndex(of: key)!)
            }
            let key = slots.count
            var rows: [RowSlot] = []
            for row in section.rows {
                guard let rowID = row.id else { throw .itemWithoutID("insert") }
                if let earlier = rowKeys[rowID], earlier >= firstInserted {
                    throw .itemNamedTwice(rowID, in: "insertSections")
                }
                try requireNew(item: rowID, "insert section \"\(id)\" with item")
                rowKeys[rowID] = key
                rows.append(RowSlot(id: rowID, content: row))
            }
            slots.append(SectionSlot(content: section, rows: rows))
            sectionKeys[id] = key
            order.insert(key, at: position)
            position += 1
        }
    }

    // MARK: Finding ids

    private func requireUnique(_ ids: [String], _ refusal: (String) -> BatchError) throws(BatchError) {
        var seen = Set<String>()
        for id in ids where !id.isEmpty && !seen.insert(id).inserted { throw refusal(id) }
    }

    /// Refuses to `action` the item `id` when the working copy holds an item
    /// with that id, saying where: `[2, 1] in section "green"`.
    private mutating func requireNew(item id: String, _ action: String) throws(BatchError) {
        guard let key = rowKeys[id] else { return }
        materialize(key)
        let section = order.firstIndex(of: key)!
        var place = "[\(section), \(position(of: id, in: key))]"
        if let sectionID = slots[key].content.id { place += " in section \"\(sectionID)\"" }
        throw .itemAlreadyInTable(id, action, at: place)
    }

    /// The key of the section holding the row `id`, its rows copied into slots.
    private mutating func itemKey(_ id: String, _ action: String) throws(BatchError) -> Int {
        guard let key = rowKeys[id] else { throw .unknownItem(id, action) }
        materialize(key)
        return key
    }

    private func sectionKey(_ id: String, _ action: String) throws(BatchError) -> Int {
        guard let key = sectionKeys[id] else { throw .unknownSection(id, action) }
        return key
    }

    private mutating func materialize(_ key: Int) {
        guard slots[key].rows == nil, let origin = slots[key].origin else { return }
        slots[key].rows = table.sections[origin].rows.enumerated().map { index, row in
            RowSlot(id: row.id, origin: TableIndexPath(origin, index))
        }
    }

    private func position(of id: String, in key: Int) -> Int {
        slots[key].rows!.firstIndex { $0.id == id }!
    }

    /// The section key and row position `place` names, that section's rows copied into slots.
    private mutating func resolve(_ place: IdentifiedEdit.ItemPlace, _ action: String) throws(BatchError) -> (Int, Int)
    {
        switch place {
        case .before(let anchor):
            let key = try itemKey(anchor, "\(action) before item")
            return (key, position(of: anchor, in: key))
        case .after(let anchor):
            let key = try itemKey(anchor, "\(action) after item")
            return (key, position(of: anchor, in: key) + 1)
        case .end(let section):
            let key: Int
            if let section {
                key = try sectionKey(section, "\(action) into section")
            } else if let last = order.last {
                key = last
            } else {
                throw .noSectionToAppendTo
            }
            materialize(key)
            return (key, slots[key].rows!.count)
        }
    }

    /// The position in `order` that `place` names.
    private func resolve(_ place: IdentifiedEdit.SectionPlace, _ action: String) throws(BatchError) -> Int {
        switch place {
        case .before(let anchor): order.firstIndex(of: try sectionKey(anchor, "\(action) before section"))!
        case .after(let anchor): order.firstIndex(of: try sectionKey(anchor, "\(action) after section"))! + 1
        case .end: order.count
        }
    }

    // MARK: The index batch

    /// What happened to a section of the table.
    private enum Fate {
        case deleted
        /// Still there, perhaps moved, its rows edited one by one.
        case kept
        /// Reloaded: published whole, with its final rows.
        case replaced
    }

    /// The working copy's difference from the table, as one index batch.
    func batch() -> Batch {
        var batch = Batch()
        var fates = [Fate](repeating: .deleted, count: table.sections.count)
        let staying = stayingOrigins()
        for (final, key) in order.enumerated() {
            let slot = slots[key]
            guard let origin = slot.origin else {
                batch.insertSections.append(.init(at: final, section: content(of: key)))
                continue
            }
            switch (slot.isReloaded, staying.contains(origin)) {
            case (true, true):
                fates[origin] = .replaced
                batch.reloadSections.append(.init(at: origin, section: content(of: key)))
            case (true, false):
                fates[origin] = .replaced
                batch.deleteSections.append(origin)
                batch.insertSections.append(.init(at: final, section: content(of: key)))
            case (false, let stays):
                fates[origin] = .kept
                if !stays { batch.moveSections.append(.init(from: origin, to: final)) }
            }
        }
        for (origin, fate) in fates.enumerated() where fate == .deleted {
            batch.deleteSections.append(origin)
        }
        var claimed = Set<TableIndexPath>()
        for (final, key) in order.enumerated() {
            guard let origin = slots[key].origin, fates[origin] == .kept, let rows = slots[key].rows else { continue }
            addRowEdits(rows, section: origin, final: final, fates: fates, claimed: &claimed, to: &batch)
        }
        for key in slots.indices {
            guard let origin = slots[key].origin, fates[origin] == .kept, slots[key].rows != nil else { continue }
            for row in table.sections[origin].rows.indices where !claimed.contains(TableIndexPath(origin, row)) {
                batch.deleteRows.append(TableIndexPath(origin, row))
            }
        }
        return batch
    }

    /// The rows of a kept section (old position `section`, new `final`): inserts,
    /// moves and reloads, each old position it accounts for added to `claimed`.
    private func addRowEdits(
        _ rows: [RowSlot], section: Int, final: Int, fates: [Fate],
        claimed: inout Set<TableIndexPath>, to batch: inout Batch
    ) {
        let local = rows.indices.filter { rows[$0].origin?.section == section }
        let inRun = keptInPlace(local.map { rows[$0].origin!.row }, moved: local.map { rows[$0].isMoved })
        let staying = Set(zip(local, inRun).filter(\.1).map(\.0))
        for (index, slot) in rows.enumerated() {
            let to = TableIndexPath(final, index)
            guard let from = slot.origin, fates[from.section] == .kept else {
                batch.insertRows.append(.init(at: to, row: row(slot)))
                continue
            }
            claimed.insert(from)
            switch (staying.contains(index), slot.content) {
            case (true, nil): break
            case (true, let content?): batch.reloadRows.append(.init(at: from, row: content))
            case (false, nil): batch.moveRows.append(.init(from: from, to: to))
            case (false, let content?):
                batch.deleteRows.append(from)
                batch.insertRows.append(.init(at: to, row: content))
            }
        }
    }

    /// The old positions of the table's sections that keep their place: one
    /// longest increasing run of them in the working order.
    private func stayingOrigins() -> Set<Int> {
        let kept = order.filter { slots[$0].origin != nil }
        let inRun = keptInPlace(kept.map { slots[$0].origin! }, moved: kept.map { slots[$0].isMoved })
        return Set(zip(kept, inRun).filter(\.1).map { slots[$0.0].origin! })
    }

    /// Marks the old positions `values` (in their new order) that keep their
    /// place: a longest increasing run of those no edit moved, then each moved
    /// one that still falls between its kept neighbours. So moving a row
    /// publishes the move of that row (not of the rows it passed), and a move
    /// that ends where it began publishes nothing.
    private func keptInPlace(_ values: [Int], moved: [Bool]) -> [Bool] {
        let unmoved = values.indices.filter { !moved[$0] }
        var kept = [Bool](repeating: false, count: values.count)
        for (index, inRun) in zip(unmoved, longestIncreasingSubsequence(unmoved.map { values[$0] })) {
            kept[index] = inRun
        }
        var nextKept = [Int](repeating: Int.max, count: values.count + 1)
        for index in values.indices.reversed() {
            nextKept[index] = kept[index] ? values[index] : nextKept[index + 1]
        }
        var lastKept = Int.min
        for index in values.indices {
            if !kept[index], moved[index], values[index] > lastKept, values[index] < nextKept[index + 1] {
                kept[index] = true
            }
            if kept[index] { lastKept = values[index] }
        }
        return kept
    }

    private func row(_ slot: RowSlot) -> Row {
        slot.content ?? table.row(at: slot.origin!)!
    }

    /// A section of the working copy as it is published: its properties and final rows.
    private func content(of key: Int) -> Section {
        var section = slots[key].content
        if let rows = slots[key].rows {
            section.rows = RowList(rows.map(row))
        } else if let origin = slots[key].origin {
            section.rows = table.sections[origin].rows
        }
        return section
    }
}

extension IdentifiedBatch {
    /// The one index batch these edits make of `table` (see `IdentifiedTranslation`
    /// for the rules and the cost); refused, in UIKit's style, when an edit names
    /// an id that is not there or inserts one that is.
    public func translated(for table: Table) throws(BatchError) -> Batch {
        var translation = IdentifiedTranslation(table: table, namedRowIDs: namedRowIDs)
        for edit in edits {
            try translation.perform(edit)
        }
        var batch = translation.batch()
        batch.animation = animation
        batch.expect = expect
        return batch
    }

    /// Every row id the edits name: edited, inserted, or an anchor.
    var namedRowIDs: Set<String> {
        var ids = Set<String>()
        func add(_ place: IdentifiedEdit.ItemPlace) {
            switch place {
            case .before(let id), .after(let id): ids.insert(id)
            case .end: break
            }
        }
        for edit in edits {
            switch edit {
            case .insertItems(let rows, let place):
                ids.formUnion(rows.compactMap(\.id))
                add(place)
            case .deleteItems(let named): ids.formUnion(named)
            case .moveItem(let id, let place):
                ids.insert(id)
                add(place)
            case .reloadItems(let rows), .reconfigureItems(let rows): ids.formUnion(rows.compactMap(\.id))
            case .insertSections(let sections, _):
                for section in sections { ids.formUnion(section.rows.compactMap(\.id)) }
            case .deleteSections, .moveSection, .reloadSections: break
            }
        }
        return ids
    }
}
