import FuzzSupport
import TableModel

/// A batch for a table of `sections` sections, read from fuzzer bytes: up to 24
/// operations of every kind, positions mostly in range and now and then just
/// outside it, inserted ids from pools that overlap the fixed table's.
struct BatchFromBytes {
    private var reader: ByteReader
    private let rowCounts: [Int]
    private var serial = 0

    init(_ bytes: some Sequence<UInt8>, for table: Table) {
        reader = ByteReader(bytes)
        rowCounts = table.sections.map(\.rows.count)
    }

    mutating func batch() -> Batch {
        var batch = Batch(animation: reader.pick(RowAnimation.allCases))
        for _ in 0..<24 where !reader.isAtEnd {
            switch reader.below(10) {
            case 0: batch.deleteSections.append(section())
            case 1: batch.insertSections.append(.init(at: section(), section: newSection()))
            case 2: batch.reloadSections.append(.init(at: section(), section: newSection()))
            case 3: batch.moveSections.append(.init(from: section(), to: section()))
            case 4: batch.deleteRows.append(indexPath())
            case 5, 6: batch.insertRows.append(.init(at: indexPath(), row: newRow()))
            case 7: batch.reloadRows.append(.init(at: indexPath(), row: newRow()))
            case 8: batch.moveRows.append(.init(from: indexPath(), to: indexPath()))
            default: properties(&batch)
            }
        }
        return batch
    }

    /// A section index from -1 to two past the last.
    private mutating func section() -> Int {
        reader.below(rowCounts.count + 3) - 1
    }

    /// An index path whose row is from -1 to two past the section's last row.
    private mutating func indexPath() -> TableIndexPath {
        let section = section()
        let rows = rowCounts.indices.contains(section) ? rowCounts[section] : 3
        return TableIndexPath(section, reader.below(rows + 3) - 1)
    }

    /// Ids `a0…a9`, `g0…g9` (some in the fixed table) or `n0…n9`, or none.
    private mutating func newRow() -> Row {
        serial += 1
        let id = reader.chance(60) ? "\(reader.pick(["a", "g", "n"]))\(reader.below(10))" : nil
        return Row(id: id, text: "N\(serial)")
    }

    private mutating func newSection() -> Section {
        let id = reader.chance(50) ? reader.pick(["a", "b", "big", "s1", "s2"]) : nil
        return Section(id: id, header: "S\(serial)", rows: (0..<reader.below(4)).map { _ in newRow() })
    }

    /// A property change, or an `expect` that may or may not hold.
    private mutating func properties(_ batch: inout Batch) {
        if reader.chance(50) {
            batch.properties = TableProperties(
                title: reader.chance(50) ? .some(reader.pick([nil, "Fixed", "New"])) : nil,
                style: reader.chance(50) ? reader.pick(TableStyle.allCases) : nil)
        } else {
            let rows = reader.chance(50) ? (0..<reader.below(7)).map { _ in reader.below(40) } : nil
            batch.expect = .init(sections: reader.chance(50) ? reader.below(7) : nil, rows: rows)
        }
    }
}
