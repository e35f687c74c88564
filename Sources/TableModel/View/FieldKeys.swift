import Synchronization

/// A leaf's index of one field's values, which lets a view's `eq` filter on
/// that field (`filter[fields.state]=S1`) pass over a table without reading
/// its rows: each row's value as a 32-bit key, side by side in one array.
///
/// Opening a view on 1,000,000 rows spent half its time in the filter's pass
/// (a field looked up by name, its text folded and compared, row by row;
/// docs/perf-history/live-views-and-search.md, "Opening a view: a leaf's field
/// keys"). Each leaf of a `RowList` keeps the keys of the fields filters asked
/// for until its rows change, as it keeps its `SearchText`: the first view
/// builds them, every later view of any version that shares the leaf reads
/// them, and an edit folds again only the leaves it touched.
///
/// ## Invariants
/// - `keys[i]` is the key of row `i` of the leaf: 0 when the field is not a
///   string (missing, a number, a bool, null, an array or an object);
///   otherwise `key(of:)` of the string folded (`TextFolding`), never 0.
/// - A string `eq` filter holds for a row only if the row's folded text equals
///   the filter's folded value byte for byte (`TextFolding.compare` answers
///   `.same` for equal bytes only: digit runs equal in value but not in
///   leading zeros differ). So a row whose key is neither 0 nor the filter's
///   key is out of the view; every other row (the key matched, or a hash
///   collided, or a value that is no string) is checked by the filter itself.
///   The index leaves rows out, never lets one in.
/// - A leaf keeps at most `kept` fields, in the order filters asked for them;
///   a column once kept is never replaced, so a reader holds it unretained as
///   long as the leaf (which it holds) lives. The chain is appended to with a
///   compare-and-swap on the last column's `next`, and dropped whole when the
///   leaf's rows change, which only its one owner can do (`RowListNode`).
///
/// ## Complexity and memory
/// Building a leaf's column: O(r) rows, each folded once. A filter's pass:
/// O(n) 32-bit comparisons over n rows, plus the filter itself on the rows
/// that match. Memory: 4 bytes a row for each field kept, and an object a
/// leaf (docs/ARCHITECTURE.md, "Views").
final class FieldKeys: Sendable {
    /// The field whose values `keys` are.
    let name: String
    let keys: [UInt32]
    /// The column of the next field this leaf keeps, once one is kept (retained).
    private let nextSlot = Atomic<Unmanaged<FieldKeys>?>(nil)

    /// The most fields a leaf keeps keys of: a filter on another field reads
    /// the leaf's rows as before.
    static let kept = 4

    init(name: String, keys: [UInt32]) {
        self.name = name
        self.keys = keys
    }

    deinit { nextSlot.load(ordering: .acquiring)?.release() }

    /// The column of the next field this leaf keeps, if one is kept.
    var next: FieldKeys? { nextSlot.load(ordering: .acquiring)?.takeUnretainedValue() }

    /// The key of `folded` text: FNV-1a, with the low bit set so that no text's key is 0.
    static func key(of folded: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in folded { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash | 1
    }

    /// The keys of field `name` of `rows`, in order; `scratch` holds each text folded.
    static func keys(of rows: UnsafeBufferPointer<Row>, field name: String) -> [UInt32] {
        var scratch: [UInt8] = []
        return rows.map { row in
            guard case .string(let text) = row.fields[name] else { return 0 }
            scratch.removeAll(keepingCapacity: true)
            TextFolding.fold(text, into: &scratch)
            return key(of: scratch)
        }
    }

    /// Calls `body` with the column of `name` in this chain, appending one
    /// built of `rows` (the leaf's) when there is none and fewer than `kept`
    /// are; past that, with keys built for the call alone.
    func withKeys<Result>(
        of name: String, rows: UnsafeBufferPointer<Row>, _ body: (UnsafeBufferPointer<UInt32>) -> Result
    ) -> Result {
        // Most leaves keep one field: its keys, with no reference taken.
        if self.name == name { return keys.withUnsafeBufferPointer(body) }
        var column = self
        var depth = 1
        while true {
            if column.name == name { return column.keys.withUnsafeBufferPointer(body) }
            if let next = column.next {
                column = next
                depth += 1
                continue
            }
            let built = FieldKeys(name: name, keys: Self.keys(of: rows, field: name))
            guard depth < Self.kept else { return built.keys.withUnsafeBufferPointer(body) }
            let retained = Unmanaged.passRetained(built)
            let (stored, _) = column.nextSlot.compareExchange(
                expected: nil, desired: retained, ordering: .acquiringAndReleasing)
            if stored { return built.keys.withUnsafeBufferPointer(body) }
            // Another pass appended a column first: look again from it.
            retained.release()
        }
    }
}

extension RowListNode {
    /// Calls `body` with this leaf's keys of field `name` (`FieldKeys`), built
    /// now and kept if no pass built them before. Two passes building at once
    /// keep the first (compare-and-swap); the leaf's rows do not change while
    /// it is shared (`RowListNode`).
    func withFieldKeys<Result>(
        _ name: String, _ body: (UnsafeBufferPointer<Row>, UnsafeBufferPointer<UInt32>) -> Result
    ) -> Result {
        rows.withUnsafeBufferPointer { rows in
            while true {
                if let head = fieldKeysSlot.load(ordering: .acquiring) {
                    return head._withUnsafeGuaranteedRef { $0.withKeys(of: name, rows: rows) { body(rows, $0) } }
                }
                let built = Unmanaged.passRetained(FieldKeys(name: name, keys: FieldKeys.keys(of: rows, field: name)))
                let (stored, _) = fieldKeysSlot.compareExchange(
                    expected: nil, desired: built, ordering: .acquiringAndReleasing)
                if stored {
                    return built._withUnsafeGuaranteedRef { $0.keys.withUnsafeBufferPointer { body(rows, $0) } }
                }
                built.release()
            }
        }
    }
}

extension RowList {
    /// Calls `body` with the position and address of each row in `range`
    /// whose key of field `name` (`FieldKeys`) is `key` or 0 (a value that is
    /// no string), in order: every row for which an `eq` filter of that key
    /// can hold. The address is valid during the call only. O(log n + range)
    /// comparisons, and the folding of the leaves that have no keys of `name` yet.
    func forEachRow(
        in range: Range<Int>, field name: String, key: UInt32, _ body: (Int, UnsafePointer<Row>) -> Void
    ) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "RowList range out of range")
        guard !range.isEmpty else { return }
        var leafStart = range.lowerBound
        var found: [Int] = []
        root.visitLeafNodes(in: range) { leaf, rows in
            found.removeAll(keepingCapacity: true)
            leaf.withFieldKeys(name) { buffer, keys in
                for index in rows where keys[index] == key || keys[index] == 0 { found.append(index) }
                if !found.isEmpty { Row.handPrefetched(buffer, found, from: leafStart - rows.lowerBound, body) }
            }
            leafStart += rows.count
        }
    }
}
