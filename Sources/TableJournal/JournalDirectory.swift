/// The files of one journal directory:
///
/// - `LOCK`: locked by the server using the journal, so two never share it;
/// - `segment-0000000001.wtj`, …: records, appended in order, one segment after another;
/// - `snapshot-0000000005.wts`: every table as of the start of segment 5; segments
///   before it are no longer needed and are removed;
/// - `snapshot-*.tmp`: a snapshot being written; renamed when complete, removed at start-up otherwise.
struct JournalDirectory: Sendable {
    let path: String

    /// The numbers of the segments and snapshots present, in ascending order, and leftover temporary files.
    struct Listing: Sendable {
        var segments: [Int] = []
        var snapshots: [Int] = []
        var temporary: [String] = []
    }

    func segmentPath(_ number: Int) -> String { file("segment", number, "wtj") }
    func snapshotPath(_ number: Int) -> String { file("snapshot", number, "wts") }
    func temporarySnapshotPath(_ number: Int) -> String { file("snapshot", number, "tmp") }
    var lockPath: String { path + "/LOCK" }

    func list() throws(JournalError) -> Listing {
        var listing = Listing()
        for name in try JournalFile.names(in: path) {
            if let number = Self.number(in: name, prefix: "segment-", suffix: ".wtj") {
                listing.segments.append(number)
            } else if let number = Self.number(in: name, prefix: "snapshot-", suffix: ".wts") {
                listing.snapshots.append(number)
            } else if name.hasPrefix("snapshot-"), name.hasSuffix(".tmp") {
                listing.temporary.append(path + "/" + name)
            }
        }
        listing.segments.sort()
        listing.snapshots.sort()
        return listing
    }

    private func file(_ kind: String, _ number: Int, _ suffix: String) -> String {
        let digits = String(number)
        return "\(path)/\(kind)-\(String(repeating: "0", count: max(0, 10 - digits.count)))\(digits).\(suffix)"
    }

    private static func number(in name: String, prefix: String, suffix: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }
}
