/// Where the items a batch reloads end up after it.
///
/// A reloaded section or row is named by its position before the batch; it keeps
/// its place among the items that remain and is shifted by what the batch
/// inserts or moves in around it. Clients that patch a rendered table need that
/// final position (the change feed sends reloaded rows' HTML addressed by it).
/// Each look-up is O(k) in the number of operations of the batch.
public struct FinalPositions: Sendable {
    private let removedSections: [Int]
    private let placedSections: [Int]
    private let movedSections: [Int: Int]
    private var removedRows: [Int: [Int]] = [:]
    private var placedRows: [Int: [Int]] = [:]

    /// `batch` must be one the engine accepted (its positions valid).
    public init(_ batch: Batch) {
        removedSections = (batch.deleteSections + batch.moveSections.map(\.from)).sorted()
        placedSections = (batch.insertSections.map(\.at) + batch.moveSections.map(\.to)).sorted()
        movedSections = Dictionary(batch.moveSections.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        for indexPath in batch.deleteRows + batch.moveRows.map(\.from) {
            removedRows[indexPath.section, default: []].append(indexPath.row)
        }
        for indexPath in batch.insertRows.map(\.at) + batch.moveRows.map(\.to) {
            placedRows[indexPath.section, default: []].append(indexPath.row)
        }
        for key in removedRows.keys { removedRows[key]!.sort() }
        for key in placedRows.keys { placedRows[key]!.sort() }
    }

    /// The index after the batch of the section at `section` before it (not deleted).
    public func section(_ section: Int) -> Int {
        if let target = movedSections[section] { return target }
        return Self.shift(section, removed: removedSections, placed: placedSections)
    }

    /// The index path after the batch of the row at `indexPath` before it
    /// (neither deleted nor moved, in a section that is not deleted).
    public func row(_ indexPath: TableIndexPath) -> TableIndexPath {
        let finalSection = section(indexPath.section)
        let row = Self.shift(
            indexPath.row,
            removed: removedRows[indexPath.section] ?? [],
            placed: placedRows[finalSection] ?? []
        )
        return TableIndexPath(finalSection, row)
    }

    /// The rank among the remaining items, then pushed past every target at or before it.
    private static func shift(_ position: Int, removed: [Int], placed: [Int]) -> Int {
        var result = position - removed.prefix { $0 < position }.count
        for target in placed {
            if target <= result { result += 1 } else { break }
        }
        return result
    }
}
