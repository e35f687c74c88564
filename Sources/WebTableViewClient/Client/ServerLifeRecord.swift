import Synchronization

/// The server's life as the client last heard it (docs/API.md, "Caching"): the
/// life an answer's entity tag names (`"k3f9a2c1.7"`), or none when its tags
/// are bare versions (a server whose versions outlive it). An edit's
/// `If-Match` names its version in that life, as the tags the client received
/// do, so that a version read before the server started a new life is refused
/// (`412`) rather than taken for the new life's version of the same number.
/// Shared by every copy of a `TableClient` (and its followers), behind a lock.
final class ServerLifeRecord: Sendable {
    private let life = Mutex<String?>(nil)

    /// Takes the life `tag` names (nil: a bare version); an entity tag that is
    /// no version (a hash, on `/api/tables`) is not passed here.
    func record(tag: String) {
        let named = TableClient.life(ofTag: tag)
        life.withLock { $0 = named }
    }

    /// `version` as an entity tag of the life last heard: `"k3f9a2c1.7"`, or `"7"`.
    func tag(_ version: Int) -> String {
        let named = life.withLock { $0 }
        return "\"" + (named.map { "\($0)." } ?? "") + "\(version)\""
    }
}
