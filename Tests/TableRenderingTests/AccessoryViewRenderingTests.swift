import TableModel
import TableRendering
import Testing

/// Accessory views as the page draws them (docs/FORMAT.md, "Accessory views"):
/// readable without JavaScript, escaped, and drawn instead of the standard accessory.
@Suite struct AccessoryViewRenderingTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    private func render(_ rows: [Row], style: TableStyle = .plain, at row: Int = 0) -> String {
        renderer.row(Fixtures.table(style: style, rows: rows), at: TableIndexPath(0, row))
    }

    @Test(arguments: TableStyle.allCases)
    func aSwitchIsACheckboxWithTheRoleSwitchInEveryStyle(style: TableStyle) throws {
        let on = render(
            [Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: true, isEnabled: true))], style: style)
        let input = try #require(HTMLProbe.startTags("input", in: on).first)
        #expect(input.attributeNames == ["type", "role", "class", "aria-label", "checked"])
        #expect(input.attributes["type"] == "checkbox" && input.attributes["role"] == "switch")
        #expect(input.attributes["aria-label"] == "Wi-Fi")
        #expect(try #require(Fixtures.cells(on).first).has("accessory-view-switch"))

        let off = render([Row(text: "Wi-Fi", accessoryView: .switch(isOn: false, isEnabled: false))], style: style)
        let disabled = try #require(HTMLProbe.startTags("input", in: off).first)
        #expect(disabled.attributeNames == ["type", "role", "class", "aria-label", "disabled"])
    }

    @Test func theViewIsDrawnInsteadOfTheStandardAccessory() throws {
        let html = render([Row(text: "Mail", accessory: .disclosureIndicator, accessoryView: .badge("3"))])
        #expect(HTMLProbe.text(ofClass: "badge", in: html) == ["3"])
        #expect(!html.contains("chevron"))
        let without = render([Row(text: "Mail", accessory: .disclosureIndicator)])
        #expect(without.contains("chevron") && !without.contains("badge"))
    }

    @Test func badgesAndButtonsOfOneShapeKeepTheirOwnEscapedText() throws {
        let rows = [
            Row(text: "a", accessoryView: .badge("<b>1</b>")), Row(text: "b", accessoryView: .badge("\"2\" & 'x'")),
            Row(text: "c", accessoryView: .button(title: "Go <now>")),
            Row(text: "d", accessoryView: .button(title: "Stop")),
        ]
        #expect(HTMLProbe.text(ofClass: "badge", in: render(rows, at: 0)) == ["<b>1</b>"])
        #expect(render(rows, at: 0).contains("&lt;b&gt;1&lt;/b&gt;"))
        #expect(HTMLProbe.text(ofClass: "badge", in: render(rows, at: 1)) == ["\"2\" & 'x'"])
        #expect(
            render(rows, at: 2).contains(#"<button class="accessory-button" type="button">Go &lt;now&gt;</button>"#))
        #expect(render(rows, at: 3).contains(#"<button class="accessory-button" type="button">Stop</button>"#))
        let button = try #require(HTMLProbe.startTags("button", in: render(rows, at: 3)).first)
        #expect(button.attributes["type"] == "button")
    }

    @Test func anActivityIndicatorIsAnnounced() throws {
        let html = render([Row(text: "Checking…", accessoryView: .activityIndicator)])
        let spinner = try #require(HTMLProbe.startTags("span", in: html).first { $0.has("activity-indicator") })
        #expect(spinner.attributes["role"] == "progressbar" && spinner.attributes["aria-label"] == "In progress")
    }

    @Test func aSwitchLabelIsEscaped() throws {
        let html = render([Row(text: "\"><script>x</script>", accessoryView: .switch(isOn: true, isEnabled: true))])
        let input = try #require(HTMLProbe.startTags("input", in: html).first)
        #expect(
            input.name == "input" && input.attributes["aria-label"].map(HTMLProbe.unescape) == "\"><script>x</script>")
        #expect(!html.contains("<script>"))
    }
}
