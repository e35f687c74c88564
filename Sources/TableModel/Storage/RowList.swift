/// The rows of one section.
///
/// PLACEHOLDER STORAGE: a plain array while the counted B-tree is written.
public struct RowList: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    private var storage: [Row]

    public init() { storage = [] }
    public init<S: Sequence>(_ rows: S) where S.Element == Row { storage = Array(rows) }
    public init(arrayLiteral rows: Row...) { storage = rows }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public var count: Int { storage.count }

    public subscript(position: Int) -> Row {
        get { storage[position] }
        set { storage[position] = newValue }
    }

    public mutating func insert(_ row: Row, at position: Int) { storage.insert(row, at: position) }
    @discardableResult
    public mutating func remove(at position: Int) -> Row { storage.remove(at: position) }
    public mutating func append(_ row: Row) { storage.append(row) }

    /// The rows in `range`, in order: O(log n + range.count).
    public func rows(in range: Range<Int>) -> [Row] { Array(storage[range]) }
}
