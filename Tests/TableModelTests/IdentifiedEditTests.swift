import Testing
@testable import TableModel

/// Edits by id translated into one index batch: the batch published for
/// typical edits, and every refusal in its words.
@Suite("Edits by id")
struct IdentifiedEditTests {
    /// Section "a" with a0…a3, section "b" with b0 and a row without id.
    static let table = Table(
        id: "t",
        sections: [
            Section(id: "a", header: "A", rows: (0...3).map { Row(id: "a\($0)", text: "A\($0)") }),
            Section(id: "b", header: "B", rows: [Row(id: "b0", text: "B0"), Row(text: "no id")]),
        ])

    /// The index batch `edits` make of the table, applied to it; answers the batch.
    func translate(_ edits: [IdentifiedEdit], on table: Table = table) throws -> (batch: Batch, table: Table) {
        var table = table
        let batch = try IdentifiedBatch(edits: edits).translated(for: table)
        _ = try table.apply(batch)
        return (batch.normalised(), table)
    }

    func ids(_ table: Table) -> [[String]] {
        table.sections.map { section in section.rows.map { $0.id ?? "-" } }
    }

    @Test("moveItem after an item of its section is one moveRows")
    func moveAfter() throws {
        let (batch, table) = try translate([.moveItem("a0", .after("a2"))])
        #expect(batch == Batch(moveRows: [.init(from: TableIndexPath(0, 0), to: TableIndexPath(0, 2))]))
        #expect(batch.moveRows.count == 1, "a1 and a2, which it passed, stay")
        #expect(ids(table) == [["a1", "a2", "a0", "a3"], ["b0", "-"]])
    }

    @Test("moveItem to another section's end, and before an item there")
    func moveAcross() throws {
        let (batch, table) = try translate([.moveItem("a1", .end(section: "b")), .moveItem("a3", .before("b0"))])
        #expect(
            batch.moveRows == [
                .init(from: TableIndexPath(0, 1), to: TableIndexPath(1, 3)),
                .init(from: TableIndexPath(0, 3), to: TableIndexPath(1, 0)),
            ])
        #expect(ids(table) == [["a0", "a2"], ["a3", "b0", "-", "a1"]])
    }

    @Test("Inserts before, after and at the end; appendItems without a section goes to the last one")
    func inserts() throws {
        let (batch, table) = try translate([
            .insertItems([Row(id: "n0")], .before("a0")),
            .insertItems([Row(id: "n1"), Row(id: "n2")], .after("a3")),
            .insertItems([Row(id: "n3")], .end(section: nil)),
        ])
        #expect(
            batch.insertRows.map(\.at) == [
                TableIndexPath(0, 0), TableIndexPath(0, 5), TableIndexPath(0, 6), TableIndexPath(1, 2),
            ])
        #expect(batch.moveRows.isEmpty && batch.deleteRows.isEmpty)
        #expect(ids(table) == [["n0", "a0", "a1", "a2", "a3", "n1", "n2"], ["b0", "-", "n3"]])
    }

    @Test("A row reloaded in place is a reloadRows; reloaded and moved, a delete and an insert")
    func reloads() throws {
        let (batch, table) = try translate([
            .reloadItems([Row(id: "a1", text: "A1!")]),
            .reconfigureItems([Row(id: "a2", text: "A2!")]),
            .moveItem("a2", .before("a0")),
        ])
        #expect(batch.reloadRows == [.init(at: TableIndexPath(0, 1), row: Row(id: "a1", text: "A1!"))])
        #expect(batch.deleteRows == [TableIndexPath(0, 2)])
        #expect(batch.insertRows == [.init(at: TableIndexPath(0, 0), row: Row(id: "a2", text: "A2!"))])
        #expect(table.sections[0].rows.map(\.text) == ["A2!", "A0", "A1!", "A3"])
    }

    @Test("Edits that cancel out publish nothing")
    func cancelling() throws {
        let (batch, _) = try translate([
            .moveItem("a0", .end(section: "b")), .moveItem("a0", .before("a1")),
            .insertItems([Row(id: "n")], .after("b0")), .deleteItems(["n"]),
        ])
        #expect(batch.isEmpty)
    }

    @Test("Sections by id: insert, move, delete with their rows")
    func sections() throws {
        let (batch, table) = try translate([
            .insertSections([Section(id: "c", header: "C", rows: [Row(id: "c0")])], .before("a")),
            .moveSection("b", .before("a")),
            .insertItems([Row(id: "c1")], .after("c0")),
            .deleteSections(["a"]),
        ])
        #expect(batch.deleteSections == [0])
        #expect(batch.insertSections.map(\.at) == [0])
        #expect(batch.insertSections[0].section.rows.map(\.id) == ["c0", "c1"])
        #expect(batch.moveSections.isEmpty, "b keeps its place among the sections that stay")
        #expect(ids(table) == [["c0", "c1"], ["b0", "-"]])
    }

    @Test("A reloaded section keeps its rows and takes in the row edits made inside it")
    func reloadedSection() throws {
        let (batch, table) = try translate([
            .reloadSections([Section(id: "b", header: "B!")]),
            .moveItem("a0", .after("b0")),
        ])
        #expect(batch.reloadSections.map(\.at) == [1])
        #expect(batch.reloadSections[0].section.header == "B!")
        #expect(
            batch.deleteRows == [TableIndexPath(0, 0)], "a row moved into a replaced section is deleted where it was")
        #expect(batch.moveRows.isEmpty)
        #expect(ids(table) == [["a1", "a2", "a3"], ["b0", "a0", "-"]])
    }

    @Test("A row out of a reloaded section, and out of a deleted one, is inserted")
    func outOfReplacedSections() throws {
        let (batch, table) = try translate([
            .moveItem("b0", .before("a0")),
            .reloadSections([Section(id: "b", header: "B!")]),
        ])
        #expect(batch.insertRows == [.init(at: TableIndexPath(0, 0), row: Row(id: "b0", text: "B0"))])
        #expect(batch.reloadSections[0].section.rows.map(\.text) == ["no id"])
        #expect(ids(table) == [["b0", "a0", "a1", "a2", "a3"], ["-"]])
        let (deleted, after) = try translate([.moveItem("b0", .end(section: "a")), .deleteSections(["b"])])
        #expect(deleted.deleteSections == [1])
        #expect(deleted.insertRows.map(\.at) == [TableIndexPath(0, 4)])
        #expect(ids(after) == [["a0", "a1", "a2", "a3", "b0"]])
    }

    @Test("A reloaded section that moves is deleted and inserted: UIKit reloads and moves it no more than a row")
    func reloadedAndMoved() throws {
        let (batch, table) = try translate([
            .reloadSections([Section(id: "a", header: "A!")]), .moveSection("a", .after("b")),
        ])
        #expect(batch.deleteSections == [0])
        #expect(batch.insertSections.map(\.at) == [1])
        #expect(batch.insertSections.first?.section.rows.map(\.id) == ["a0", "a1", "a2", "a3"])
        #expect(batch.reloadSections.isEmpty && batch.moveSections.isEmpty)
        #expect(ids(table) == [["b0", "-"], ["a0", "a1", "a2", "a3"]])
    }

    @Test("The row or section an edit moves is the one the batch moves, not those it passed")
    func movedIsPublished() throws {
        let (rows, _) = try translate([.moveItem("a3", .before("a0"))])
        #expect(rows.moveRows == [.init(from: TableIndexPath(0, 3), to: TableIndexPath(0, 0))])
        let (back, _) = try translate([.moveItem("a1", .after("a2")), .moveItem("a1", .before("a2"))])
        #expect(back.isEmpty)
        let (sections, _) = try translate([.moveSection("a", .after("b"))])
        #expect(sections.moveSections == [.init(from: 0, to: 1)])
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let edits: [IdentifiedEdit]
        let type: String
        let detail: String
        var testDescription: String { detail }
    }

    static let refusals: [Refusal] = [
        Refusal(
            edits: [.deleteItems(["zz"])], type: "unknown-id",
            detail: "attempt to delete item \"zz\", which is not in the table"),
        Refusal(
            edits: [.moveItem("a0", .before("zz"))], type: "unknown-id",
            detail: "attempt to move an item before item \"zz\", which is not in the table"),
        Refusal(
            edits: [.insertItems([Row(id: "n")], .after("zz"))], type: "unknown-id",
            detail: "attempt to insert items after item \"zz\", which is not in the table"),
        Refusal(
            edits: [.insertItems([Row(id: "n")], .end(section: "zz"))], type: "unknown-id",
            detail: "attempt to insert items into section \"zz\", which is not in the table"),
        Refusal(
            edits: [.deleteItems(["a0"]), .reloadItems([Row(id: "a0")])], type: "unknown-id",
            detail: "attempt to reload item \"a0\", which is not in the table"),
        Refusal(
            edits: [.deleteSections(["b"]), .moveItem("b0", .before("a0"))], type: "unknown-id",
            detail: "attempt to move item \"b0\", which is not in the table"),
        Refusal(
            edits: [.moveSection("a", .after("zz"))], type: "unknown-id",
            detail: "attempt to move a section after section \"zz\", which is not in the table"),
        Refusal(
            edits: [.reloadSections([Section(id: "zz")])], type: "unknown-id",
            detail: "attempt to reload section \"zz\", which is not in the table"),
        Refusal(
            edits: [.insertItems([Row(id: "b0")], .end(section: "a"))], type: "duplicate-id",
            detail:
                "attempt to insert item \"b0\", which is already in the table at [1, 0] in section \"b\"; item ids are unique"
        ),
        Refusal(
            edits: [.insertItems([Row(id: "n"), Row(id: "n")], .end(section: "a"))], type: "duplicate-id",
            detail: "item \"n\" is named twice in insertItems; item ids are unique"),
        Refusal(
            edits: [.deleteItems(["a0", "a0"])], type: "duplicate-id",
            detail: "item \"a0\" is named twice in deleteItems; item ids are unique"),
        Refusal(
            edits: [.insertSections([Section(id: "a")], .end)], type: "duplicate-id",
            detail:
                "attempt to insert section \"a\", which is already in the table at section 0; section ids are unique"),
        Refusal(
            edits: [.insertSections([Section(id: "n"), Section(id: "n")], .end)], type: "duplicate-id",
            detail: "section \"n\" is named twice in insertSections; section ids are unique"),
        Refusal(
            edits: [
                .moveItem("a0", .end(section: "b")), .insertSections([Section(id: "n", rows: [Row(id: "a0")])], .end),
            ],
            type: "duplicate-id",
            detail:
                "attempt to insert section \"n\" with item \"a0\", which is already in the table at [1, 2] in section \"b\"; item ids are unique"
        ),
        Refusal(
            edits: [
                .insertSections([Section(id: "n", rows: [Row(id: "x")]), Section(id: "m", rows: [Row(id: "x")])], .end)
            ],
            type: "duplicate-id", detail: "item \"x\" is named twice in insertSections; item ids are unique"),
        Refusal(
            edits: [.reconfigureItems([Row(id: "a1"), Row(id: "a1")])], type: "duplicate-id",
            detail: "item \"a1\" is named twice in reconfigureItems; item ids are unique"),
        Refusal(
            edits: [.moveItem("a0", .after("a0"))], type: "move-relative-to-itself",
            detail: "attempt to move item \"a0\" relative to itself"),
        Refusal(
            edits: [.moveSection("a", .before("a"))], type: "move-relative-to-itself",
            detail: "attempt to move section \"a\" relative to itself"),
        Refusal(
            edits: [.deleteSections(["a", "b"]), .insertItems([Row(id: "n")], .end(section: nil))],
            type: "invalid-update",
            detail: "There are currently no sections in the data source. Please add a section first."),
        Refusal(
            edits: [.insertItems([Row(text: "x")], .end(section: nil))], type: "missing-id",
            detail: "attempt to insert an item without an id; items edited by id need one"),
    ]

    @Test("Unknown, duplicate and missing ids are refused in UIKit's style", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(throws: BatchError(type: refusal.type, detail: refusal.detail)) {
            try IdentifiedBatch(edits: refusal.edits).translated(for: Self.table)
        }
    }

    @Test("Animation and expect pass through to the index batch")
    func passThrough() throws {
        let batch = try IdentifiedBatch(
            edits: [.deleteItems(["a0"])], animation: .fade, expect: .init(rows: [3, 2])
        ).translated(for: Self.table)
        #expect(batch.animation == .fade)
        #expect(batch.expect == .init(rows: [3, 2]))
    }
}
