import Glibc

/// Values by request path, looked up with the path's bytes as libmicrohttpd
/// hands them over: no `String` is made to ask.
///
/// Open addressing with linear probing over a power-of-two number of slots,
/// at most half of them full (the table doubles first), so a probe ends at an
/// empty slot after a few steps. Paths are hashed with the standard library's
/// `Hasher`, seeded per process, so no client can choose paths that collide.
/// Nothing is removed one at a time: a path's value is replaced in place, and
/// ``removeAll()`` empties the table.
///
/// A class, so asking reads the slots where they are instead of copying the
/// table out of its owner; it is not safe to share between threads.
final class AnswerTable<Value> {
    /// A slot's hash, 0 when the slot is empty (a real hash of 0 is stored as 1).
    private var hashes: [Int]
    private var paths: [[UInt8]]
    private var values: [Value?]
    private(set) var count = 0

    init() {
        hashes = Array(repeating: 0, count: 16)
        paths = Array(repeating: [], count: 16)
        values = Array(repeating: nil, count: 16)
    }

    /// The value kept for `path`.
    func value(for path: UnsafeRawBufferPointer) -> Value? {
        value(for: path, hash: Self.hash(path))
    }

    /// The value kept for `path`, whose ``hash(_:)`` is `hash`.
    func value(for path: UnsafeRawBufferPointer, hash: Int) -> Value? {
        if case .found(let slot) = probe(path, hash: hash) {
            return values[slot]
        }
        return nil
    }

    /// Keeps `value` for `path`; answers the value it replaces.
    @discardableResult
    func set(_ value: Value, for path: UnsafeRawBufferPointer) -> Value? {
        set(value, for: path, hash: Self.hash(path))
    }

    /// Keeps `value` for `path`, whose ``hash(_:)`` is `hash`; answers the value it replaces.
    @discardableResult
    func set(_ value: Value, for path: UnsafeRawBufferPointer, hash: Int) -> Value? {
        switch probe(path, hash: hash) {
        case .found(let slot):
            defer { values[slot] = value }
            return values[slot]
        case .empty(let slot):
            if (count + 1) * 2 > hashes.count {
                grow()
                return set(value, for: path, hash: hash)
            }
            hashes[slot] = hash
            paths[slot] = Array(path)
            values[slot] = value
            count += 1
            return nil
        }
    }

    func removeAll() {
        for slot in hashes.indices where hashes[slot] != 0 {
            hashes[slot] = 0
            paths[slot] = []
            values[slot] = nil
        }
        count = 0
    }

    private enum Probe {
        case found(Int)
        case empty(Int)
    }

    /// The slot holding `path`, or the empty slot where it would go.
    private func probe(_ path: UnsafeRawBufferPointer, hash: Int) -> Probe {
        let mask = hashes.count - 1
        var slot = hash & mask
        while hashes[slot] != 0 {
            if hashes[slot] == hash, Self.equal(paths[slot], path) {
                return .found(slot)
            }
            slot = (slot + 1) & mask
        }
        return .empty(slot)
    }

    private func grow() {
        let old = (hashes, paths, values)
        let capacity = hashes.count * 2
        hashes = Array(repeating: 0, count: capacity)
        paths = Array(repeating: [], count: capacity)
        values = Array(repeating: nil, count: capacity)
        for slot in old.0.indices where old.0[slot] != 0 {
            var target = old.0[slot] & (capacity - 1)
            while hashes[target] != 0 {
                target = (target + 1) & (capacity - 1)
            }
            hashes[target] = old.0[slot]
            paths[target] = old.1[slot]
            values[target] = old.2[slot]
        }
    }

    /// The hash a path is kept under: seeded per process, never 0.
    static func hash(_ path: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: path)
        let hash = hasher.finalize()
        return hash == 0 ? 1 : hash
    }

    private static func equal(_ stored: [UInt8], _ path: UnsafeRawBufferPointer) -> Bool {
        stored.withUnsafeBytes { stored in
            stored.count == path.count
                && (path.isEmpty || memcmp(stored.baseAddress!, path.baseAddress!, path.count) == 0)
        }
    }
}
