/// Building blocks of `SnapshotDiff` (see `SnapshotDiff.swift`): the flattened
/// form of a table, identity matching through a symbol table, and the longest
/// increasing subsequence that decides which items stay put.

/// The rows of a table addressed by one flat index, without copying them.
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
/// - `ids[f] == row(f).id` and `idHashes[f] == RowKey.hash(ids[f]!)` when that id
///   exists (unspecified otherwise).
///
/// Building it is one pass over the leaves: O(n) with n/16 retains at most, where
/// copying the rows themselves (every `Row` is about 200 bytes with retained
/// strings) took a quarter of a diff.
struct FlatSnapshot {
    let sections: [Section]
    let start: [Int]
    /// The section of each flat row.
    let sectionOf: [Int]
    /// Each row's id, in flat order.
    let ids: [String?]
    /// Each row's id hashed with `RowKey.hash` (0 for a row without one).
    let idHashes: [Int]
    /// True when every id is ASCII, so equal ids have equal bytes (see `RowKey`).
    let idsAreASCII: Bool
    /// True when at least one row has no id (and so is matched by content).
    let hasRowsWithoutID: Bool
    private let leaves: [[Row]]
    /// `location[f]`: leaf index of row `f` times 64 plus its offset in the leaf
    /// (a leaf holds at most `RowListNode.leafCapacity`, under 64, rows).
    private let location: [UInt32]

    init(_ sections: [Section]) {
        self.sections = sections
        let total = sections.reduce(0) { $0 + $1.rows.count }
        var start: [Int] = []
        var sectionOf: [Int] = []
        var ids: [String?] = []
        var idHashes: [Int] = []
        var leaves: [[Row]] = []
        var location: [UInt32] = []
        start.reserveCapacity(sections.count + 1)
        sectionOf.reserveCapacity(total)
        ids.reserveCapacity(total)
        idHashes.reserveCapacity(total)
        location.reserveCapacity(total)
        var ascii = true
        var withoutID = false
        for (index, section) in sections.enumerated() {
            start.append(ids.count)
            sectionOf.append(contentsOf: repeatElement(index, count: section.rows.count))
            let firstLeaf = leaves.count
            section.rows.appendLeaves(to: &leaves)
            for leaf in firstLeaf..<leaves.count {
                leaves[leaf].withUnsafeBufferPointer { rows in
                    // Read in place: `rows[offset].id` alone, not a copy of the row.
                    for offset in rows.indices {
                        location.append(UInt32(leaf << 6 | offset))
                        if let id = rows[offset].id {
                            idHashes.append(RowKey.hash(id, isASCII: &ascii))
                            ids.append(id)
                        } else {
                            idHashes.append(0)
                            ids.append(nil)
                            withoutID = true
                        }
                    }
                }
            }
        }
        start.append(ids.count)
        self.start = start
        self.sectionOf = sectionOf
        self.ids = ids
        self.idHashes = idHashes
        self.leaves = leaves
        self.location = location
        idsAreASCII = ascii
        hasRowsWithoutID = withoutID
    }

    /// The number of rows.
    var count: Int { ids.count }

    /// The flat indexes of every row.
    var indices: Range<Int> { 0..<ids.count }

    /// Flat row `flat`: O(1).
    func row(_ flat: Int) -> Row {
        let place = Int(location[flat])
        return leaves[place >> 6][place & 63]
    }

    /// Whether flat row `flat` has the same content as row `other` of `snapshot`,
    /// compared where they lie (copying two rows to compare them was most of the cost).
    func rowEquals(_ flat: Int, _ other: Int, of snapshot: FlatSnapshot) -> Bool {
        let place = Int(location[flat])
        let otherPlace = Int(snapshot.location[other])
        return leaves[place >> 6].withUnsafeBufferPointer { rows in
            snapshot.leaves[otherPlace >> 6].withUnsafeBufferPointer { otherRows in
                Row.sameContent(rows.baseAddress! + (place & 63), otherRows.baseAddress! + (otherPlace & 63))
            }
        }
    }

    /// Whether rows `flat` and `other` both have ids, and the same.
    func sameID(_ flat: Int, _ other: Int, of snapshot: FlatSnapshot) -> Bool {
        guard let id = ids[flat], let otherID = snapshot.ids[other] else { return false }
        return id == otherID
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
            same = left.load(fromByteOffset: offset, as: UInt8.self) == right.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
        }
        return same || a.pointee == b.pointee
    }
}

/// How row ids are hashed for matching.
///
/// Swift hashes a `String` with SipHash over its normalised form; the diff hashes
/// ids a hundred thousand at a time, and that was a third of its cost. For ASCII
/// text, bytes equal exactly when strings are equal (`==` is canonical
/// equivalence, and the canonical form of ASCII is itself), so ASCII ids are hashed
/// over their UTF-8 bytes, eight at a time, with a multiply-and-fold mix seeded
/// once per process (so that no client can choose ids that collide). When any id of
/// either table is not ASCII, the diff hashes every id with Swift's own `hashValue`
/// instead, keeping `String`'s equality.
enum RowKey {
    /// Random per process.
    static let seed = UInt64.random(in: .min ... .max)

    /// The id's hash; clears `isASCII` when a byte of it is not ASCII.
    static func hash(_ id: String, isASCII: inout Bool) -> Int {
        var id = id
        var seen: UInt64 = 0
        let value = id.withUTF8 { bytes in Self.hash(UnsafeRawBufferPointer(bytes), seen: &seen) }
        if seen & 0x8080_8080_8080_8080 != 0 { isASCII = false }
        return value
    }

    /// The hash of `bytes`; ORs every 8 of them into `seen`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seen: inout UInt64) -> Int {
        var state = seed ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            seen |= word
            state = mix(state ^ word)
            offset += 8
        }
        if offset < bytes.count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                word |= UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self)) << shift
                shift += 8
                offset += 1
            }
            seen |= word
            state = mix(state ^ word)
        }
        return Int(truncatingIfNeeded: mix(state))
    }

    /// 128-bit product folded to 64 bits (as wyhash mixes).
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = (value ^ 0xE703_7ED1_A0B4_28DB).multipliedFullWidth(by: 0x8EBC_6AF0_9C88_C6E3)
        return product.high ^ product.low
    }
}

/// What makes two sections the same section: their id, or for sections without
/// one their own content — header, footer and index title, not their rows (as
/// DifferenceKit identifies an `ArraySection` by its model, not its elements).
enum SectionIdentity: Hashable {
    case id(String)
    case content(header: String?, footer: String?, indexTitle: String?)

    init(_ section: Section) {
        if let id = section.id {
            self = .id(id)
        } else {
            self = .content(header: section.header, footer: section.footer, indexTitle: section.indexTitle)
        }
    }
}

/// Which old item each new item is, and back: `-1` where there is none.
///
/// Invariant: `oldToNew[o] == n` exactly when `newToOld[n] == o`; a pair, once
/// made, is never undone.
struct Matching {
    var oldToNew: [Int]
    var newToOld: [Int]
    /// Scratch for `pair`: the next old occurrence of the same key.
    private var next: [Int]

    init(oldCount: Int, newCount: Int) {
        oldToNew = [Int](repeating: -1, count: oldCount)
        newToOld = [Int](repeating: -1, count: newCount)
        next = [Int](repeating: -1, count: oldCount)
    }

    /// Pairs the still unmatched old items in `oldRange` with the still unmatched
    /// new items in `newRange` whose keys are equal.
    ///
    /// Heckel's symbol table: one pass over the old items, backwards, leaves for
    /// each key the first old occurrence with a chain (`next`) to the following
    /// ones; one pass over the new items takes occurrences off the front, so
    /// repeated equal keys pair up in order (first with first, second with
    /// second) and extra ones stay unmatched. O(old + new) expected.
    ///
    /// The table is open addressing with linear probing over a power-of-two array
    /// at most half full, keyed by hashes the caller computed once per item
    /// (`oldHash`, `newHash`; nil: the item has no key and takes no part). A slot
    /// keeps the first old occurrence of its key (to compare keys with,
    /// `sameKey(old, old)` and `sameKey(old, new)`) and the next one still
    /// unmatched (`-1` once all are taken): a `HeckelSlot`.
    mutating func pair(
        old oldRange: Range<Int>,
        new newRange: Range<Int>,
        oldHash: (Int) -> Int?,
        newHash: (Int) -> Int?,
        sameOld: (Int, Int) -> Bool,
        sameKey: (Int, Int) -> Bool
    ) {
        var keyed = 0
        for old in oldRange where oldToNew[old] < 0 { keyed += 1 }
        guard keyed > 0 else { return }
        var capacity = 4
        while capacity < 2 * keyed { capacity <<= 1 }
        let mask = capacity - 1
        // One slot a key, its three fields side by side so that a probe reads one
        // cache line (three parallel arrays cost three misses a probe on large tables).
        var slots = [HeckelSlot](repeating: HeckelSlot(first: -1, hash: 0, head: -1), count: capacity)
        var used = false
        for old in oldRange.reversed() where oldToNew[old] < 0 {
            guard let hash = oldHash(old) else { continue }
            var slot = hash & mask
            while slots[slot].first >= 0 && !(slots[slot].hash == hash && sameOld(slots[slot].first, old)) {
                slot = (slot + 1) & mask
            }
            next[old] = slots[slot].first >= 0 ? slots[slot].head : -1
            slots[slot] = HeckelSlot(first: old, hash: hash, head: old)
            used = true
        }
        guard used else { return }
        for new in newRange where newToOld[new] < 0 {
            guard let hash = newHash(new) else { continue }
            var slot = hash & mask
            while slots[slot].first >= 0 {
                if slots[slot].hash == hash && sameKey(slots[slot].first, new) {
                    let old = slots[slot].head
                    if old >= 0 {
                        slots[slot].head = next[old]
                        oldToNew[old] = new
                        newToOld[new] = old
                    }
                    break
                }
                slot = (slot + 1) & mask
            }
        }
    }
}

/// A slot of `Matching.pair`'s table: the first old occurrence of its key (`-1`:
/// the slot is empty), the key's hash, and the next occurrence still unmatched
/// (`-1` once all are taken).
struct HeckelSlot {
    var first: Int
    var hash: Int
    var head: Int
}

/// Marks the elements of one longest strictly increasing subsequence of `values`.
///
/// Patience sorting: `tails[k]` is the index of the smallest value that ends an
/// increasing run of length `k + 1`; each value binary-searches its place and
/// links to its predecessor. O(n log n) time, O(n) when the values mostly
/// increase (a value above the longest run's end extends it without a search);
/// O(n) space.
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    var tails: [Int] = []
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        // Mostly increasing input (rows that mostly stay) extends the longest run: O(1).
        if let last = tails.last, values[last] < value {
            predecessor[index] = last
            tails.append(index)
            continue
        }
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { predecessor[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var kept = [Bool](repeating: false, count: values.count)
    var index = tails.last ?? -1
    while index >= 0 {
        kept[index] = true
        index = predecessor[index]
    }
    return kept
}
