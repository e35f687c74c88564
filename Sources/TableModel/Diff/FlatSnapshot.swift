/// The rows of a table addressed by one flat index, without copying them: how
/// `SnapshotDiff` (see `SnapshotDiff.swift`) reads both tables.
///
/// A row is named by its flat index `f` in `0..<count`; its section is
/// `sectionOf[f]` and its row index inside that section `f - start[sectionOf[f]]`.
///
/// Invariants:
/// - `start[s]` is the flat index of section `s`'s first row and
///   `start[sections.count] == count`; so `sectionOf[f] == s` exactly when
///   `start[s] <= f < start[s + 1]`.
/// - `row(f)` is the row at that place: `leaves` are the sections' leaf buffers in
///   order, shared with the table (one retain a leaf, never a copy of a row), and
///   `location[f]` names the leaf and the offset in it.
/// - `hasID(f) == (row(f).id != nil)`; when it has one, `idHashes[f] ==
///   RowKey.hash(row(f).id!)` and the id's UTF-8 bytes are
///   `idBytes[idEnd[f - 1] ..< idEnd[f]]` (from 0 for `f == 0`; an empty range for a
///   row without an id). `idHashes[f]` is 0 for a row without one.
///
/// The ids are kept as bytes in one buffer, not as `String`s: an array of a
/// hundred thousand strings costs a retain for each when it is built and a call
/// to destroy each when it is let go, which together were a fifth of a diff
/// (docs/ARCHITECTURE.md, *Rows in memory*). When every id is ASCII (bytes equal
/// exactly when strings are equal, see `RowKey`) ids are compared as bytes; when
/// one is not, as `String`s read in place.
///
/// Building it is one pass over the leaves: O(n) with n/16 retains at most, where
/// copying the rows themselves took a quarter of a diff.
struct FlatSnapshot {
    let sections: [Section]
    let start: [Int]
    /// The section of each flat row.
    let sectionOf: CompactIndexes
    /// Each row's id hashed with `RowKey.hash` (0 for a row without one).
    let idHashes: [Int]
    /// True when every id is ASCII, so equal ids have equal bytes (see `RowKey`).
    let idsAreASCII: Bool
    /// True when at least one row has no id (and so is matched by content).
    let hasRowsWithoutID: Bool
    /// The UTF-8 bytes of every id, one after the other in flat order.
    private let idBytes: [UInt8]
    /// `idEnd[f]`: where row `f`'s id ends in `idBytes` (and row `f + 1`'s begins).
    private let idEnd: [Int]
    /// By flat row: whether it has an id (empty unless `hasRowsWithoutID`).
    private let keyed: [Bool]
    private let leaves: [[Row]]
    /// `location[f]`: leaf index of row `f` times 64 plus its offset in the leaf
    /// (a leaf holds at most `RowListNode.leafCapacity`, under 64, rows).
    private let location: [UInt32]

    init(_ sections: [Section]) {
        self.sections = sections
        let total = sections.reduce(0) { $0 + $1.rows.count }
        // Flat indexes and section indexes are kept in 32 bits (`CompactIndexes`).
        precondition(total < Int32.max && sections.count < Int32.max, "a table too large to diff")
        var start: [Int] = []
        var sectionOf: [Int32] = []
        var idHashes: [Int] = []
        var idBytes: [UInt8] = []
        var idEnd: [Int] = []
        var keyed: [Bool] = []
        var leaves: [[Row]] = []
        var location: [UInt32] = []
        start.reserveCapacity(sections.count + 1)
        sectionOf.reserveCapacity(total)
        idHashes.reserveCapacity(total)
        idBytes.reserveCapacity(8 * total)
        idEnd.reserveCapacity(total)
        location.reserveCapacity(total)
        var seen: UInt64 = 0
        let seed = RowKey.seed
        var withoutID = false
        for (index, section) in sections.enumerated() {
            start.append(location.count)
            sectionOf.append(contentsOf: repeatElement(Int32(index), count: section.rows.count))
            let firstLeaf = leaves.count
            section.rows.appendLeaves(to: &leaves)
            for leaf in firstLeaf..<leaves.count {
                leaves[leaf].withUnsafeBufferPointer { rows in
                    // Read in place: the bytes of `rows[offset].id` alone, not a copy of the row or the id.
                    for offset in rows.indices {
                        func append(_ utf8: UnsafeBufferPointer<UInt8>) {
                            idHashes.append(RowKey.hash(UnsafeRawBufferPointer(utf8), seed: seed, seen: &seen))
                            idBytes.append(contentsOf: utf8)
                        }
                        if rows[offset].id?.utf8.withContiguousStorageIfAvailable(append) != nil {
                            // Read where the string keeps its bytes.
                        } else if var id = rows[offset].id {
                            id.withUTF8(append)
                        } else {
                            if !withoutID {
                                // The first row without an id: every row before it had one.
                                withoutID = true
                                keyed = [Bool](repeating: true, count: location.count)
                            }
                            idHashes.append(0)
                        }
                        if withoutID { keyed.append(rows[offset].id != nil) }
                        idEnd.append(idBytes.count)
                        location.append(UInt32(leaf << 6 | offset))
                    }
                }
            }
        }
        start.append(location.count)
        self.start = start
        self.sectionOf = CompactIndexes(sectionOf)
        self.idHashes = idHashes
        self.idBytes = idBytes
        self.idEnd = idEnd
        self.keyed = keyed
        self.leaves = leaves
        self.location = location
        idsAreASCII = seen & 0x8080_8080_8080_8080 == 0
        hasRowsWithoutID = withoutID
    }

    /// The number of rows.
    var count: Int { location.count }

    /// The flat indexes of every row.
    var indices: Range<Int> { 0..<location.count }

    /// Whether flat row `flat` has an id: O(1), no row read.
    func hasID(_ flat: Int) -> Bool { !hasRowsWithoutID || keyed[flat] }

    /// Calls `body` with flat row `flat` where it lies in its leaf (which is
    /// retained and released for it: many rows in a row read through a `LeafCursor`).
    @inline(__always)
    private func withRow<Result>(_ flat: Int, _ body: (UnsafePointer<Row>) -> Result) -> Result {
        let place = Int(location[flat])
        return leaves[place >> 6].withUnsafeBufferPointer { rows in body(rows.baseAddress! + (place & 63)) }
    }

    /// Flat row `flat`: O(1).
    func row(_ flat: Int) -> Row { withRow(flat) { $0.pointee } }

    /// Flat row `flat`'s id.
    func id(_ flat: Int) -> String? { withRow(flat) { $0.pointee.id } }

    /// Whether flat row `flat` has the same content as row `other` of `snapshot`,
    /// compared where they lie (copying two rows to compare them was most of the cost).
    func rowEquals(_ flat: Int, _ other: Int, of snapshot: FlatSnapshot) -> Bool {
        withRow(flat) { row in snapshot.withRow(other) { otherRow in Row.sameContent(row, otherRow) } }
    }

    /// The leaf a walk over many rows last read, held so that the next row in the
    /// same leaf is read without retaining it again. Each read of a leaf out of
    /// `leaves` retains and releases its buffer (atomically); comparing every matched
    /// pair that way cost two of each a pair, where rows read in order share a leaf.
    struct LeafCursor {
        fileprivate var index = -1
        fileprivate var leaf: [Row] = []
    }

    /// `rowEquals(flat, other, of: snapshot)`, reading each side through a cursor.
    func rowEquals(
        _ flat: Int, _ other: Int, of snapshot: FlatSnapshot, cursors: inout (LeafCursor, LeafCursor)
    ) -> Bool {
        withRow(flat, cursor: &cursors.0) { row in
            snapshot.withRow(other, cursor: &cursors.1) { otherRow in Row.sameContent(row, otherRow) }
        }
    }

    @inline(__always)
    private func withRow<Result>(
        _ flat: Int, cursor: inout LeafCursor, _ body: (UnsafePointer<Row>) -> Result
    ) -> Result {
        let place = Int(location[flat])
        if cursor.index != place >> 6 {
            cursor.index = place >> 6
            cursor.leaf = leaves[place >> 6]
        }
        return cursor.leaf.withUnsafeBufferPointer { rows in body(rows.baseAddress! + (place & 63)) }
    }

    /// Whether rows `flat` and `other` both have ids, and the same: their bytes
    /// when both tables' ids are ASCII, else the strings.
    func sameID(_ flat: Int, _ other: Int, of snapshot: FlatSnapshot) -> Bool {
        guard hasID(flat) && snapshot.hasID(other) else { return false }
        guard idsAreASCII && snapshot.idsAreASCII else { return id(flat) == snapshot.id(other) }
        let begin = flat > 0 ? idEnd[flat - 1] : 0
        let otherBegin = other > 0 ? snapshot.idEnd[other - 1] : 0
        let length = idEnd[flat] - begin
        guard snapshot.idEnd[other] - otherBegin == length else { return false }
        return idBytes.withUnsafeBytes { bytes in
            snapshot.idBytes.withUnsafeBytes { otherBytes in
                Self.sameBytes(bytes.baseAddress! + begin, otherBytes.baseAddress! + otherBegin, count: length)
            }
        }
    }

    /// Whether the `count` bytes at `a` and at `b` are the same: eight at a time,
    /// then the rest in one read of eight (overlapping) or of four, two and one.
    private static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        func same<Word: FixedWidthInteger>(_ offset: Int, _: Word.Type) -> Bool {
            a.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        guard count >= 8 else {
            var offset = 0
            if count & 4 != 0 {
                guard same(0, UInt32.self) else { return false }
                offset = 4
            }
            if count & 2 != 0 {
                guard same(offset, UInt16.self) else { return false }
                offset += 2
            }
            return count & 1 == 0 || same(offset, UInt8.self)
        }
        var offset = 0
        while offset + 8 <= count {
            guard same(offset, UInt64.self) else { return false }
            offset += 8
        }
        return offset == count || same(count - 8, UInt64.self)
    }

    /// The flat indexes of the rows of section `section`.
    func rows(of section: Int) -> Range<Int> { start[section]..<start[section + 1] }

    /// The row index of flat row `flat` inside its section.
    func rowIndex(_ flat: Int) -> Int { flat - start[sectionOf[flat]] }
}

extension Row {
    /// `a.pointee == b.pointee`, read in place: the diff compares every matched
    /// pair, and copying each row to compare it was most of the diff's cost.
    ///
    /// Two rows with the same bytes are equal without a field-by-field comparison:
    /// the same small strings inline, the same string and array buffers, the same
    /// numbers (a NaN height aside, which JSON cannot write). Rows that differ in
    /// their bytes — long texts in buffers of their own — are compared with `==`.
    static func sameContent(_ a: UnsafePointer<Row>, _ b: UnsafePointer<Row>) -> Bool {
        let left = UnsafeRawPointer(a)
        let right = UnsafeRawPointer(b)
        let size = MemoryLayout<Row>.size
        var offset = 0
        var same = true
        while same && offset + 8 <= size {
            same =
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while same && offset < size {
            same =
                left.load(fromByteOffset: offset, as: UInt8.self) == right.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
        }
        return same || a.pointee == b.pointee
    }
}
