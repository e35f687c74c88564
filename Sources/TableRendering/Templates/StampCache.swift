import Synchronization

/// The row plans (``RowStamp``) of one template folder, by shape, shared by every
/// render: a page request used to render `row.mustache` once for each shape it
/// drew, a tenth of the 1,000-row page's CPU (docs/perf-history/reads-and-pages.md).
///
/// A plan depends only on the shape and the templates, which are read once at
/// start-up, so a plan made by one request serves all later ones. Shapes are
/// combinations of the row's choices and flags and the custom cell's name, few
/// in practice; past `capacity` shapes, new ones are made for their render only
/// and not kept. A nil plan (a shape drawn through the template) is kept too.
final class StampCache: Sendable {
    private let stamps = Mutex<[RowShape: RowStamp?]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The plan for `shape`, made by `make` the first time it is asked for.
    func stamp(for shape: RowShape, make: () -> RowStamp?) -> RowStamp? {
        if let known = stamps.withLock({ $0[shape] }) { return known }
        let stamp = make()
        stamps.withLock { stamps in
            if stamps.count < capacity { stamps[shape] = .some(stamp) }
        }
        return stamp
    }
}
