import Foundation
import MicroHTTP
import TableJournal
import TableModel

/// An edit sent with an `Idempotency-Key` header (docs/API.md,
/// "Idempotency-Key"): the key, the fingerprint of the request it came with,
/// and when it arrived.
struct IdempotentRequest: Sendable {
    var key: String
    /// Method, path, query and body, hashed (`ContentHash`).
    var digest: String
    /// Seconds since 1970.
    var madeAt: Int

    /// The key as a change records it; `firstVersion` for a snapshot `PUT`.
    func changeKey(firstVersion: Int? = nil) -> ChangeKey {
        ChangeKey(key: key, digest: digest, madeAt: madeAt, firstVersion: firstVersion)
    }

    /// The most bytes a key has.
    static let maxLength = 255

    /// The request's key, when it sends one; a malformed key is 400.
    init?(_ request: HTTPRequest, now: Int = IdempotencyKeys.now()) throws {
        guard var key = request.headers["Idempotency-Key"]?.trimmingSpaces() else { return nil }
        // The draft's form is a quoted string (`"8e03978e-…"`); a bare token is taken too.
        if key.utf8.count >= 2, key.utf8.first == UInt8(ascii: "\""), key.utf8.last == UInt8(ascii: "\"") {
            key = String(key.dropFirst().dropLast())
        }
        guard (1...Self.maxLength).contains(key.utf8.count),
            key.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else {
            throw TableServerError.badRequest(
                type: "idempotency-key-malformed",
                detail: "Idempotency-Key must be 1 to \(Self.maxLength) visible ASCII characters, "
                    + "without quotes or backslashes inside (a UUID, say)")
        }
        var hash = ContentHash()
        for part in [request.method.rawValue.utf8, request.path.utf8] {
            hash.combine(part)
            hash.combine(CollectionOfOne(0))
        }
        for (name, value) in request.query.sorted(by: { $0.key < $1.key }) {
            hash.combine(name.utf8)
            hash.combine(CollectionOfOne(UInt8(ascii: "=")))
            hash.combine(value.utf8)
            hash.combine(CollectionOfOne(0))
        }
        hash.combine(request.body)
        self.init(key: key, digest: hash.hex, madeAt: now)
    }

    init(key: String, digest: String, madeAt: Int) {
        self.key = key
        self.digest = digest
        self.madeAt = madeAt
    }
}

/// The `Idempotency-Key`s of one table's edits that were made, with what each
/// answered (docs/API.md, "Idempotency-Key"): kept `lifetime` seconds after
/// the edit, and at most `capacity` of them (the oldest go first). The answers
/// kept take at most `answerBudget` bytes together: past it the oldest answers
/// are dropped first, and their keys stay, each with the version its edit made
/// (`Answer.isKept`). Each key comes with its change, so a server rebuilds
/// them from the log it replays or follows (`ChangeKey`); lives in the table's
/// `TableHandle.State`.
struct IdempotencyKeys: Sendable {
    /// How long a key is kept, in seconds: 24 hours.
    static let lifetime = ChangeKey.lifetime
    /// How many keys a table keeps.
    static let capacity = ChangeKey.capacity
    /// How many bytes of answers (their changes' JSON) a table keeps: 1 MiB.
    static let answerBudget = 1 << 20

    /// What a repeat of a key's edit answers: its changes, as the first answer
    /// carried them, or only the version it made once they are dropped.
    struct Answer: Sendable {
        var digest: String
        var madeAt: Int
        /// The table's version after the edit.
        var version: Int
        /// `{version, batch}` of each change the edit made; empty once dropped
        /// for the byte budget.
        var changes: [[UInt8]]
        /// The first version of a snapshot `PUT`'s changes (`ChangeKey.firstVersion`);
        /// nil for an edit answered with its one change.
        var firstVersion: Int?

        /// Whether it answers as a snapshot `PUT` (`{version, changes}`), not
        /// with its one change.
        var isSnapshot: Bool { firstVersion != nil }
        /// Whether the first answer is still kept, not only its version.
        var isKept: Bool { !changes.isEmpty }
        /// The bytes of the answer kept.
        var bytes: Int { changes.reduce(0) { $0 + $1.count } }
    }

    private var answers: [String: Answer] = [:]
    /// Keys in the order they were remembered, with their time, from `head` on.
    private var order: [(key: String, madeAt: Int)] = []
    private var head = 0
    /// The first entry of `order` whose answer may still be kept (`head` or later).
    private var keptHead = 0
    /// The bytes of the answers kept.
    private(set) var answerBytes = 0

    static func now() -> Int { Int(Date().timeIntervalSince1970) }

    /// Remembers the answer of an edit made under `key`.
    mutating func remember(_ key: String, _ answer: Answer, now: Int = Self.now()) {
        var answer = answer
        let replaced = answers[key]
        if let replaced, replaced.madeAt == answer.madeAt {
            // The same edit again (replayed, followed): it keeps its place, and a dropped answer stays dropped.
            if !replaced.isKept { answer.changes = [] }
        } else {
            order.append((key, answer.madeAt))
        }
        answers[key] = answer
        answerBytes += answer.bytes - (replaced?.bytes ?? 0)
        forgetOld(now: now)
    }

    /// Remembers the key of a change replayed or followed from the log: the
    /// change (or a snapshot's changes) as this server published it (none
    /// when its answer was dropped before).
    mutating func remember(_ key: ChangeKey, version: Int, changes: [[UInt8]], now: Int = Self.now()) {
        guard now - key.madeAt < Self.lifetime else { return }
        remember(
            key.key,
            Answer(
                digest: key.digest, madeAt: key.madeAt, version: version, changes: changes,
                firstVersion: key.firstVersion),
            now: now)
    }

    /// What an edit sent with `request`'s key is: new (nil), a repeat (thrown
    /// as `IdempotentRepeat`, answered with the first answer), or the key used
    /// for another request (422).
    func check(_ request: IdempotentRequest) throws {
        guard let answer = answers[request.key], request.madeAt - answer.madeAt < Self.lifetime else { return }
        guard answer.digest == request.digest else { throw TableServerError.idempotencyKeyReused(request.key) }
        throw IdempotentRepeat(answer: answer)
    }

    /// Every key kept, oldest first, as a journal snapshot keeps it.
    func snapshotKeys() -> [SnapshotKey] {
        order[head...].compactMap { entry in
            guard let answer = answers[entry.key], answer.madeAt == entry.madeAt else { return nil }
            return SnapshotKey(
                key: ChangeKey(
                    key: entry.key, digest: answer.digest, madeAt: answer.madeAt, firstVersion: answer.firstVersion),
                version: answer.version, changes: answer.changes)
        }
    }

    private mutating func forgetOld(now: Int) {
        while head < order.count, answers.count > Self.capacity || now - order[head].madeAt >= Self.lifetime {
            let (key, madeAt) = order[head]
            if let answer = answers[key], answer.madeAt == madeAt {
                answerBytes -= answer.bytes
                answers[key] = nil
            }
            head += 1
        }
        keptHead = max(keptHead, head)
        while keptHead < order.count, answerBytes > Self.answerBudget {
            let (key, madeAt) = order[keptHead]
            if let answer = answers[key], answer.madeAt == madeAt {
                answerBytes -= answer.bytes
                answers[key]?.changes = []
            }
            keptHead += 1
        }
        if head >= 1_024, head * 2 >= order.count {
            order.removeFirst(head)
            keptHead -= head
            head = 0
        }
    }
}

/// An edit sent again with the key of an edit that was made: answered with
/// that edit's answer, and nothing is made.
struct IdempotentRepeat: Error {
    var answer: IdempotencyKeys.Answer
}
