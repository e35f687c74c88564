/// The values of a view's sort keys (`sort`, and `group` first when given)
/// for the rows it orders, read once and laid out to be compared in place:
/// what deriving a view sorts by.
///
/// Sorting the 20,000 rows a filter selects of 1,000,000 by `ViewValue`s
/// (a `String` and a folded array a row a key, retained and released at each
/// comparison) took a third of a view's opening
/// (docs/perf-history/live-views-and-search.md, "Opening a view: a leaf's
/// field keys"). Here each key is a column: a kind a row, numbers as
/// `Double`s with their literals aside, and the texts folded one after the
/// other in one buffer.
///
/// ## Invariants
/// Cell `c = i · keys + k` is row `i`'s value for key `k`,
/// `ViewValue.read(k, of: row i, in: its section)`:
/// - `kinds[c]` is `number`, `text` or `none`; a number's `Double` is
///   `numbers[c]` and its literal `literals[c]`; a text's folded bytes are
///   `bytes[starts[c]..<starts[c + 1]]` (empty for any other kind).
/// - `Comparator.compare(_:_:)` orders two rows exactly as
///   `TableQuery.compare` orders their `ViewValue`s: rows without a value
///   last in either direction; numbers by value (then by literal,
///   `ViewValue.compareNumbers`) before texts; texts in Finder order
///   (`TextFolding.compare`); `descending` flips all but the rows without a value.
///
/// ## Complexity
/// Building: O(m · t) for m rows of texts of t bytes, one fold a value, no
/// allocation a row. Comparing: O(1) for numbers, O(t) for texts, nothing
/// retained (`withComparator` lends the columns for a whole sort).
struct SortColumns {
    private let descending: [Bool]
    private var kinds: [Kind] = []
    private var numbers: [Double] = []
    private var literals: [String] = []
    private var starts: [Int] = [0]
    private var bytes: [UInt8] = []

    enum Kind: UInt8 {
        case number, text, none
    }

    /// The columns of `keys` for `count` rows; `value(i, key)` is the value of
    /// the row at offset `i` for `key` (`ViewValue.read`), read where the row
    /// is: a row handed out whole would be copied, its references counted.
    init(_ keys: [ViewSortKey], count: Int, value: (Int, ViewKey) -> ViewValue.Read?) {
        descending = keys.map(\.descending)
        let cells = count * keys.count
        kinds.reserveCapacity(cells)
        numbers.reserveCapacity(cells)
        literals.reserveCapacity(cells)
        starts.reserveCapacity(cells + 1)
        for offset in 0..<count {
            for key in keys { append(value(offset, key.key)) }
        }
    }

    private mutating func append(_ value: ViewValue.Read?) {
        switch value {
        case .number(let number, let literal):
            kinds.append(.number)
            numbers.append(number)
            literals.append(literal)
        case .text(let text):
            kinds.append(.text)
            numbers.append(0)
            literals.append("")
            TextFolding.fold(text, into: &bytes)
        case nil:
            kinds.append(.none)
            numbers.append(0)
            literals.append("")
        }
        starts.append(bytes.count)
    }

    /// Calls `body` with a comparator reading the columns in place, valid during the call only.
    func withComparator<Result>(_ body: (Comparator) -> Result) -> Result {
        descending.withUnsafeBufferPointer { descending in
            kinds.withUnsafeBufferPointer { kinds in
                numbers.withUnsafeBufferPointer { numbers in
                    literals.withUnsafeBufferPointer { literals in
                        starts.withUnsafeBufferPointer { starts in
                            bytes.withUnsafeBufferPointer { bytes in
                                body(
                                    Comparator(
                                        descending: descending, kinds: kinds, numbers: numbers,
                                        literals: literals, starts: starts, bytes: bytes))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Two rows' values, read in place from the columns.
    struct Comparator {
        let descending: UnsafeBufferPointer<Bool>
        let kinds: UnsafeBufferPointer<Kind>
        let numbers: UnsafeBufferPointer<Double>
        let literals: UnsafeBufferPointer<String>
        let starts: UnsafeBufferPointer<Int>
        let bytes: UnsafeBufferPointer<UInt8>

        /// Rows `a` and `b` by every key, in order: the first that differs decides.
        func compare(_ a: Int, _ b: Int) -> Ordering {
            let keys = descending.count
            for key in 0..<keys {
                let result = compare(cell: a &* keys &+ key, b &* keys &+ key, descending: descending[key])
                if result != .same { return result }
            }
            return .same
        }

        /// Rows `a` and `b` by the first key alone, ascending: whether they are of one group.
        func sameFirst(_ a: Int, _ b: Int) -> Bool {
            let keys = descending.count
            return compare(cell: a &* keys, b &* keys, descending: false) == .same
        }

        private func compare(cell a: Int, _ b: Int, descending: Bool) -> Ordering {
            let result: Ordering
            switch (kinds[a], kinds[b]) {
            case (.none, .none): return .same
            case (.none, _): return .after
            case (_, .none): return .before
            case (.number, .text): result = .before
            case (.text, .number): result = .after
            case (.number, .number):
                guard numbers[a] == numbers[b] else {
                    return (numbers[a] < numbers[b]) != descending ? .before : .after
                }
                result = ViewValue.compareNumbers(numbers[a], literals[a], numbers[b], literals[b])
            case (.text, .text):
                result = TextFolding.compare(
                    UnsafeBufferPointer(rebasing: bytes[starts[a]..<starts[a + 1]]),
                    UnsafeBufferPointer(rebasing: bytes[starts[b]..<starts[b + 1]]))
            }
            guard descending else { return result }
            return result == .before ? .after : (result == .after ? .before : .same)
        }
    }
}
