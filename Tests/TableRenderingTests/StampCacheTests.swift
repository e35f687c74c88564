import TableModel
import Testing

@testable import TableRendering

/// Row plans are kept by shape for every later render (`StampCache`).
@Suite struct StampCacheTests {
    static func shape(_ style: CellStyle) -> RowShape {
        Row(style: style, text: "x").shape(
            defaults: RowDefaults(table: Table(id: "t", sections: []), customCells: []))
    }

    @Test func aPlanIsMadeOncePerShape() {
        let cache = StampCache()
        var made = 0
        for style in [CellStyle.default, .subtitle, .default, .subtitle] {
            _ = cache.stamp(for: Self.shape(style)) {
                made += 1
                return nil
            }
        }
        #expect(made == 2)
    }

    @Test func pastItsCapacityPlansAreMadeForTheirRenderOnly() {
        let cache = StampCache(capacity: 1)
        var made = 0
        for style in [CellStyle.default, .subtitle, .subtitle, .default] {
            _ = cache.stamp(for: Self.shape(style)) {
                made += 1
                return RowStamp(rendered: "<tr>\(style.rawValue)</tr>")
            }
        }
        #expect(made == 3)
        let kept = cache.stamp(for: Self.shape(.default)) { nil }
        #expect(kept?.literals == Array("<tr>default</tr>".utf8))
    }

    /// One renderer draws tables whose rows differ only in what the table gives
    /// them (`aria-selected` when it allows selection): each keeps its own plan.
    @Test func tablesOfOneRendererKeepTheirOwnPlans() throws {
        let renderer = try makeRenderer()
        for allowsSelection in [true, false, true] {
            let table = RowPlanTests.table(RowPlanTests.hostileRows(), allowsSelection: allowsSelection)
            #expect(
                renderer.rows(table, section: 0, range: 0..<table.rowCount) == RowPlanTests.singleRows(renderer, table))
        }
    }

    /// `--ablate row-plan` (`TableRenderer`'s `stampsRows: false`): rows are
    /// rendered through the template and no plan is made for their shape; with
    /// stamps, the drawer leaves the shape's plan in the cache.
    @Test(arguments: [true, false]) func aDrawerWithoutStampsMakesNoPlan(usesStamps: Bool) throws {
        let templates = try TemplateSet(directory: Folders.templates)
        let table = Table(id: "t", sections: [Section(id: "s", rows: [Row(style: .subtitle, text: "x")])])
        let drawer = RowDrawer(
            templates: templates, defaults: RowDefaults(table: table, customCells: templates.customCells),
            usesStamps: usesStamps)
        let html = drawer.rowsHTML(of: table.sections[0], at: 0, in: 0..<1)
        #expect(html.contains(">x<"))
        var made = 0
        _ = templates.stamps.stamp(for: table.sections[0].rows[0].shape(defaults: drawer.defaults)) {
            made += 1
            return nil
        }
        #expect(made == (usesStamps ? 0 : 1))
    }
}
