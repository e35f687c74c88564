import JSON

/// Building blocks of `SnapshotDiff` (see `SnapshotDiff.swift`): how ids are
/// hashed, identity matching through a symbol table, and the longest increasing
/// subsequence that decides which items stay put. The flattened form of a table is
/// `FlatSnapshot.swift`.

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

    /// The hash of `bytes`; ORs every 8 of them into `seen`. `seed` is `RowKey.seed`,
    /// which a caller hashing many ids reads once (each read of a `static let` is a
    /// call to check that it is initialised).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = seed, seen: inout UInt64) -> Int {
        let count = bytes.count
        var state = seed ^ UInt64(count)
        var offset = 0
        while offset + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            seen |= word
            state = mix(state ^ word)
            offset += 8
        }
        if offset < count {
            // The last bytes in one word, read whole rather than byte by byte: past
            // eight bytes, the last eight (overlapping the word before); under eight,
            // a four-, a two- and a one-byte read as the count asks. Either way a
            // function of the bytes and their count alone, so equal ids hash equal.
            var word: UInt64 = 0
            if count >= 8 {
                word = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                var at = 0
                if count & 4 != 0 {
                    word = UInt64(bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
                    at = 4
                }
                if count & 2 != 0 {
                    word |= UInt64(bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)) << UInt64(8 * at)
                    at += 2
                }
                if count & 1 != 0 {
                    word |= UInt64(bytes.load(fromByteOffset: at, as: UInt8.self)) << UInt64(8 * at)
                }
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
/// one their own content — header, footer, index title and a view's group
/// value, not their rows (as
/// DifferenceKit identifies an `ArraySection` by its model, not its elements).
enum SectionIdentity: Hashable {
    case id(String)
    case content(header: String?, footer: String?, indexTitle: String?, groupValue: JSONValue?)

    init(_ section: Section) {
        if let id = section.id {
            self = .id(id)
        } else {
            self = .content(
                header: section.header, footer: section.footer, indexTitle: section.indexTitle,
                groupValue: section.groupValue)
        }
    }
}

/// Which old item each new item is, and back: `-1` where there is none.
///
/// Invariant: `oldToNew[o] == n` exactly when `newToOld[n] == o`; a pair, once
/// made, is never undone.
///
/// The maps and the scratch chain hold 32-bit indexes (`CompactIndexes`): the
/// table-wide pass reads them at random, and half the bytes are half the cache
/// lines missed (see *Complexity* in `SnapshotDiff.swift`).
struct Matching {
    var oldToNew: CompactIndexes
    var newToOld: CompactIndexes
    /// Scratch for `pair`: the next old occurrence of the same key.
    private var next: CompactIndexes

    init(oldCount: Int, newCount: Int) {
        oldToNew = CompactIndexes(repeating: -1, count: oldCount)
        newToOld = CompactIndexes(repeating: -1, count: newCount)
        next = CompactIndexes(repeating: -1, count: oldCount)
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
    /// unmatched (`-1` once all are taken): a `HeckelSlot`. Inlined into its few
    /// callers so that the key closures are too (called through a pointer, once or
    /// twice an item, they were a tenth of the matching).
    @inline(__always)
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
        var slots = [HeckelSlot](repeating: HeckelSlot(hash: 0, first: -1, head: -1), count: capacity)
        var used = false
        for old in oldRange.reversed() where oldToNew[old] < 0 {
            guard let hash = oldHash(old) else { continue }
            var slot = hash & mask
            while slots[slot].first >= 0 && !(slots[slot].hash == hash && sameOld(Int(slots[slot].first), old)) {
                slot = (slot + 1) & mask
            }
            next[old] = slots[slot].first >= 0 ? Int(slots[slot].head) : -1
            slots[slot] = HeckelSlot(
                hash: hash, first: Int32(truncatingIfNeeded: old), head: Int32(truncatingIfNeeded: old))
            used = true
        }
        guard used else { return }
        for new in newRange where newToOld[new] < 0 {
            guard let hash = newHash(new) else { continue }
            var slot = hash & mask
            while slots[slot].first >= 0 {
                if slots[slot].hash == hash && sameKey(Int(slots[slot].first), new) {
                    let old = Int(slots[slot].head)
                    if old >= 0 {
                        slots[slot].head = Int32(truncatingIfNeeded: next[old])
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

/// A slot of `Matching.pair`'s table: the key's hash, the first old occurrence of
/// its key (`-1`: the slot is empty), and the next occurrence still unmatched (`-1`
/// once all are taken). Sixteen bytes: four slots a cache line.
struct HeckelSlot {
    var hash: Int
    var first: Int32
    var head: Int32
}

/// Indexes of items (or `-1`) in 32 bits, read and written as `Int`: the diff's
/// per-row maps, half the memory of `[Int]` and so half the cache misses where they
/// are read at random. Every index is below `Int32.max`, as `FlatSnapshot` checks.
struct CompactIndexes: RandomAccessCollection {
    private var storage: [Int32]

    init(repeating value: Int, count: Int) {
        storage = [Int32](repeating: Int32(value), count: count)
    }

    init(_ storage: [Int32]) {
        self.storage = storage
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    subscript(position: Int) -> Int {
        get { Int(storage[position]) }
        set { storage[position] = Int32(truncatingIfNeeded: newValue) }
    }
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

/// Marks the elements of one longest strictly increasing subsequence of
/// `values` among those that hold every element `required` marks, which must
/// increase among themselves: the rows that stay in place, holding every row
/// that would otherwise move onto its own index path.
///
/// An element fits beside the required ones when its value lies between the
/// last required value before it and the next one after it; any increasing run
/// of such elements takes every required one too, so a longest run of them
/// (`longestIncreasingSubsequence(_:)`) holds them all. O(n log n) time, O(n)
/// space.
func longestIncreasingSubsequence(_ values: [Int], keeping required: [Bool]) -> [Bool] {
    var next = [Int](repeating: Int.max, count: values.count)
    var bound = Int.max
    for index in values.indices.reversed() {
        next[index] = bound
        if required[index] { bound = values[index] }
    }
    var fitting: [Int] = []
    var previous = Int.min
    for index in values.indices {
        if required[index] || (previous < values[index] && values[index] < next[index]) { fitting.append(index) }
        if required[index] { previous = values[index] }
    }
    var kept = [Bool](repeating: false, count: values.count)
    for (position, isKept) in longestIncreasingSubsequence(fitting.map { values[$0] }).enumerated() where isKept {
        kept[fitting[position]] = true
    }
    return kept
}
