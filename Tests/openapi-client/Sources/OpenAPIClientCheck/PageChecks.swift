import Foundation

/// The HTML side: the index, the table's page, a section's page, a row's
/// detail page and row fragments (each with a view), and the static files they load.
@MainActor
struct PageChecks {
    let client: Client
    let checks: Checks

    func run() async {
        let t = Fixture.id
        await checks.step("indexPage") {
            let html = try await text(client.indexPage().ok.body.html)
            checks.expect(html.contains("Patched"), "indexPage: the patched table's title")
        }
        await checks.step("tablePage") {
            let html = try await text(client.tablePage(path: .init(t: t), query: .init(q: "walnut")).ok.body.html)
            checks.expect(html.contains("Walnut") && !html.contains("Kale"), "tablePage view: only Walnut")
            let notFound = try await text(client.tablePage(path: .init(t: "no-such-table")).notFound.body.html)
            checks.expect(notFound.contains("no-such-table"), "tablePage: 404 page")
            let version = html.firstMatch(of: /\/assets\/([0-9a-f]+)\/tableview\.css/).map { String($0.output.1) }
            checks.expect(version != nil, "tablePage: a versioned stylesheet")
            let css = try await text(
                client.versionedStaticFile(path: .init(version: version ?? "", path: "tableview.css")).ok.body.any)
            let plain = try await text(client.staticFile(path: .init(path: "tableview.css")).ok.body.any)
            checks.expect(!css.isEmpty && css == plain, "versionedStaticFile: the same file as staticFile")
        }
        await checks.step("sectionPage") {
            let html = try await text(
                client.sectionPage(path: .init(t: t, s: 2), query: .init(offset: 5)).ok.body.html)
            checks.expect(html.contains("Elderberry") && !html.contains("Apricot"), "sectionPage: rows from 5 on")
        }
        await checks.step("rowDetailPage") {
            let html = try await text(client.rowDetailPage(path: .init(t: t, rowID: "apple")).ok.body.html)
            checks.expect(html.contains("record-field") || html.contains("Apple"), "rowDetailPage: the row's record")
            let missing = try await text(
                client.rowDetailPage(path: .init(t: t, rowID: "no-such-row")).notFound.body.html)
            checks.expect(missing.contains("no-such-row"), "rowDetailPage: 404 page")
        }
        await checks.step("rowFragment") {
            let html = try await text(
                client.rowFragment(path: .init(t: t, s: 2), query: .init(limit: 1, sort: "text")).ok.body.html)
            checks.expect(html.contains("Apple") && !html.contains("Banana"), "rowFragment view: the first by text")
        }
        await checks.step("favicon") {
            let icon = try await Data(collecting: client.favicon().ok.body.image_x_hyphen_icon, upTo: 1 << 20)
            checks.expect(icon.starts(with: [0, 0, 1, 0]), "favicon: an ICO file")
        }
    }
}
