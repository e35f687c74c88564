/// The texts a search reads of a leaf's rows — each row's `text`, `detail`
/// and string `fields`, folded (`TextFolding`) — side by side in one
/// allocation, with where each row's end.
///
/// A row keeps `detail` and `fields` in allocations of their own, so a search
/// that read them row by row spent most of its time waiting on memory
/// (docs/perf-history/live-views-and-search.md, "Search: a leaf's texts side by side"). Each
/// leaf of a `RowList` keeps its own until its rows change, as DataTables
/// keeps each row's search string: a decoded list builds them as its leaves
/// fill (`RowList.Builder`), and a search builds those missing, so a search
/// after an edit folds again only the leaves the edit touched
/// (`RowListNode.searchText`). Memory: the folded texts, one byte more a
/// text, four bytes a row (docs/ARCHITECTURE.md, "Views").
///
/// Each text is followed by 0xFF, a byte UTF-8 never holds, so a folded word
/// never holds it either and is never found across two texts, or two rows.
///
/// Layout: the header counts rows and bytes; the elements are the rows' ends
/// (`UInt32`, one a row), then the bytes. Immutable once made: the leaf that
/// keeps it shares it between threads as it shares its rows.
final class SearchText: ManagedBuffer<SearchText.Header, UInt32> {
    struct Header {
        var rowCount: Int
        var byteCount: Int
    }

    static let separator: UInt8 = 0xFF

    /// The texts of `rows`, in order.
    static func make(rows: UnsafeBufferPointer<Row>) -> SearchText {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1_024)
        var ends: [UInt32] = []
        ends.reserveCapacity(rows.count)
        for index in rows.indices {
            append(rows.baseAddress! + index, to: &bytes)
            ends.append(UInt32(bytes.count))
        }
        let header = Header(rowCount: ends.count, byteCount: bytes.count)
        // `create` makes an instance of the class it is called on.
        let text = unsafeDowncast(
            create(minimumCapacity: ends.count + (bytes.count + 3) / 4) { _ in header }, to: SearchText.self)
        text.withUnsafeMutablePointerToElements { elements in
            elements.initialize(from: ends, count: ends.count)
            UnsafeMutableRawPointer(elements + ends.count).copyMemory(from: bytes, byteCount: bytes.count)
        }
        return text
    }

    /// Appends the texts of the row at `row` to `bytes`, as a `SearchText` holds them.
    static func append(_ row: UnsafePointer<Row>, to bytes: inout [UInt8]) {
        _ = Row.anyText(at: row) { text in
            TextFolding.fold(text, into: &bytes)
            bytes.append(separator)
            return false
        }
    }

    /// Calls `body` with the index of each row in `rows` (indices into the
    /// leaf) whose texts hold every one of `words`, in order.
    ///
    /// The first word is looked for across the rows' bytes, not row by row;
    /// a row it is found in is then checked for all the words. O(bytes ·
    /// word length) at worst, no allocation.
    func forEachRow(in rows: Range<Int>, containing words: SearchWords, _ body: (Int) -> Void) {
        guard !rows.isEmpty else { return }
        withUnsafeMutablePointers { header, elements in
            let ends = UnsafeBufferPointer(start: elements, count: header.pointee.rowCount)
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(elements + ends.count).assumingMemoryBound(to: UInt8.self),
                count: header.pointee.byteCount)
            func start(of row: Int) -> Int { row == 0 ? 0 : Int(ends[row - 1]) }
            let end = Int(ends[rows.upperBound - 1])
            var row = rows.lowerBound
            var position = start(of: row)
            while position < end, let hit = words.findFirst(in: UnsafeBufferPointer(rebasing: bytes[position..<end])) {
                while Int(ends[row]) <= position + hit { row += 1 }
                if words.allFound(in: UnsafeBufferPointer(rebasing: bytes[start(of: row)..<Int(ends[row])])) {
                    body(row)
                }
                position = Int(ends[row])
                row += 1
            }
        }
    }
}

/// A search's words, folded, one after the other in one buffer: read in
/// place for every row, where an array of arrays would retain each word.
struct SearchWords {
    private let bytes: [UInt8]
    private let ends: [Int]

    /// `words`, folded; at least one.
    init(_ words: [[UInt8]]) {
        precondition(!words.isEmpty, "SearchWords needs a word")
        bytes = words.flatMap { $0 }
        ends = words.reduce(into: []) { ends, word in ends.append((ends.last ?? 0) + word.count) }
    }

    /// Where the first word begins in `texts`, if it is there.
    func findFirst(in texts: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { TextFolding.find(UnsafeBufferPointer(rebasing: $0[0..<ends[0]]), in: texts) }
    }

    /// Whether every word is found in `texts`, texts as a `SearchText` holds them.
    func allFound(in texts: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for end in ends {
                guard TextFolding.find(UnsafeBufferPointer(rebasing: bytes[start..<end]), in: texts) != nil else {
                    return false
                }
                start = end
            }
            return true
        }
    }
}

extension RowListNode {
    /// This leaf's `SearchText`: the one kept with it, or one built now and
    /// kept. Two searches building at once keep the first (compare-and-swap);
    /// the leaf's rows do not change while it is shared (`RowListNode`).
    var searchText: SearchText { withSearchText { $0 } }

    /// Calls `body` with this leaf's `SearchText` (`searchText`), lent
    /// without a reference taken: a pass over a million rows' leaves touches
    /// each text once instead of counting a reference on it (whose atomic
    /// write waits for the text's cold line, and holds up every load after it).
    func withSearchText<Result>(_ body: (SearchText) -> Result) -> Result {
        (searchTextSlot.load(ordering: .acquiring) ?? keptSearchText())._withUnsafeGuaranteedRef(body)
    }

    /// A `SearchText` of this leaf built now and kept, or the one another pass kept first.
    private func keptSearchText() -> Unmanaged<SearchText> {
        let built = Unmanaged.passRetained(rows.withUnsafeBufferPointer(SearchText.make))
        let (stored, kept) = searchTextSlot.compareExchange(
            expected: nil, desired: built, ordering: .acquiringAndReleasing)
        if stored { return built }
        built.release()
        return kept!
    }
}

extension RowList {
    /// Calls `body` with the position and address of each row in `range`
    /// whose texts hold every one of `words`, in order, read from its leaf's
    /// `SearchText`. The address is valid during the call only.
    /// O(log n + the bytes of the rows' texts), and the folding of the leaves
    /// that have no `SearchText` yet.
    func forEachRow(
        in range: Range<Int>, containing words: SearchWords, _ body: (Int, UnsafePointer<Row>) -> Void
    ) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "RowList range out of range")
        guard !range.isEmpty else { return }
        var leafStart = range.lowerBound
        var found: [Int] = []
        root.visitLeafNodes(in: range) { leaf, rows in
            found.removeAll(keepingCapacity: true)
            leaf.withSearchText { text in text.forEachRow(in: rows, containing: words) { found.append($0) } }
            if !found.isEmpty {
                leaf.rows.withUnsafeBufferPointer {
                    Row.handPrefetched($0, found, from: leafStart - rows.lowerBound, body)
                }
            }
            leafStart += rows.count
        }
    }
}
