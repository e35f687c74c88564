import Testing
@testable import TableModel

/// Tables for snapshot-diff tests: rows and sections named by their id or text,
/// and the check every diff must pass.
enum DiffFixture {
    /// A row with id `id` whose text is `text` (the id by default).
    static func row(_ id: String, _ text: String? = nil) -> Row {
        Row(id: id, text: text ?? id)
    }

    /// A row without an id, identified by its content.
    static func plain(_ text: String) -> Row {
        Row(text: text)
    }

    /// A section with id `id`, headed `header` (the id by default), holding rows with those ids.
    static func section(_ id: String, _ rowIDs: [String], header: String? = nil) -> Section {
        Section(id: id, header: header ?? id, rows: rowIDs.map { row($0) })
    }

    static func table(_ sections: [Section], title: String? = nil) -> Table {
        Table(id: "t", title: title, sections: sections)
    }

    /// A table of sections with ids `s0`, `s1`, … holding the rows with the given ids.
    static func table(_ rowIDs: [[String]]) -> Table {
        table(rowIDs.enumerated().map { section("s\($0.offset)", $0.element) })
    }

    /// The ids (or texts, for rows without one) of every row, section by section.
    static func ids(_ table: Table) -> [[String]] {
        table.sections.map { $0.rows.map { $0.id ?? $0.text } }
    }

    /// Applies `batches` in order to `old` with the batch engine; answers the result.
    static func replay(_ batches: [Batch], on old: Table) throws(BatchError) -> Table {
        var table = old
        for batch in batches {
            _ = try table.apply(batch)
        }
        return table
    }

    /// Diffs `old` and `new`, replays the batches on `old` and expects exactly `new`
    /// (version aside), no empty batch and at most three; answers the batches.
    @discardableResult
    static func expectDiff(
        from old: Table, to new: Table, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Batch] {
        let batches = SnapshotDiff.batches(from: old, to: new)
        #expect(batches.count <= 3, "\(batches.count) batches", sourceLocation: sourceLocation)
        #expect(!batches.contains { $0.isEmpty }, "an empty batch", sourceLocation: sourceLocation)
        do {
            var result = try replay(batches, on: old)
            #expect(result.version == old.version + batches.count, sourceLocation: sourceLocation)
            result.version = new.version
            #expect(result == new, "replay differs from the new table: \(batches)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("batch refused: \(error.type): \(error.detail) in \(batches)", sourceLocation: sourceLocation)
        }
        return batches
    }
}
