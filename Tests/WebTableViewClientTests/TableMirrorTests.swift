import TableModel
import Testing
import WebTableViewClient

@Suite struct TableMirrorTests {
    /// A view's mirror at version 3 (the view did not change at 2 and 3).
    private static func viewMirror() -> TableMirror {
        var view = fixtureTable()
        view.version = 3
        return TableMirror(view)
    }

    /// A view's change applies from its `since` up to the version before it,
    /// each step an update of the change's version, valid against the one before.
    @Test func aViewsChangeAppliesFromItsSinceInSteps() {
        var mirror = Self.viewMirror()
        let steps = [
            Batch(deleteRows: [TableIndexPath(0, 0)]),
            Batch(insertRows: [Batch.RowItem(at: TableIndexPath(1, 0), row: Row(id: "n", text: "N"))]),
        ]
        guard case .applied(let updates) = mirror.follow(ViewChange(version: 7, since: 1, steps: steps)) else {
            Issue.record("not applied")
            return
        }
        #expect(updates.map(\.version) == [7, 7])
        #expect(updates.map(\.deletedRows) == [[TableIndexPath(0, 0)], []])
        #expect(updates.map(\.insertedRows) == [[], [TableIndexPath(1, 0)]])
        #expect(updates[0].table.sections[0].rows.count == 6 && updates[0].table.sections[1].rows.count == 2)
        #expect(updates[1].table.jsonBytes == mirror.table.jsonBytes && mirror.version == 7)
    }

    /// A change at or below the mirror's version is seen; one whose `since` is
    /// past it, or whose later step does not apply, is lost and changes nothing.
    @Test func aViewsChangeSeenOrLostLeavesTheMirror() {
        var mirror = Self.viewMirror()
        let before = mirror.table.jsonBytes
        let delete = Batch(deleteRows: [TableIndexPath(0, 0)])
        guard case .seen = mirror.follow(ViewChange(version: 3, since: 2, steps: [delete])) else {
            Issue.record("not seen")
            return
        }
        guard case .lost = mirror.follow(ViewChange(version: 6, since: 4, steps: [delete])) else {
            Issue.record("a gap not lost")
            return
        }
        guard case .lost = mirror.follow(ViewChange(version: 4, since: 3, steps: [delete, Batch(deleteSections: [9])]))
        else {
            Issue.record("a step that does not apply not lost")
            return
        }
        #expect(mirror.table.jsonBytes == before && mirror.version == 3)
    }
}
