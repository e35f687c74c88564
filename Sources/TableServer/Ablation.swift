/// An optimisation switched off, so that `make bench`'s ablation step measures
/// what it buys (docs/PERFORMANCE.md). `webtableview serve --ablate NAME`
/// (repeatable) sets them; the server hands each to the library it concerns
/// as that library's own option.
public enum Ablation: String, Sendable, CaseIterable {
    /// Rows rendered through `row.mustache` one by one instead of by their
    /// shape's stamp (`TableRenderer`'s `stampsRows`).
    case rowPlan = "row-plan"
    /// Events sent one `send()` a stream instead of in io_uring batches
    /// (`EventFanOut.unbatched`).
    case sendRing = "send-ring"
    /// Database notices that carry no changes, so every replica reads every
    /// change by query (`DatabaseOptions.noticesCarryChanges`).
    case noticeChanges = "notice-changes"
}
