import ArgumentParser
import Foundation
import WebTableViewClient

/// `webtableview-follow URL` (also `webtableview follow URL`): prints a served
/// table, then each change as it arrives (README.md, "Following a table").
@main
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webtableview-follow",
        abstract: "Print a served table, then each change as it arrives.",
        discussion: """
            URL names a table or a view: http://HOST:PORT/api/tables/ID (or /tables/ID), \
            with a view's query (?q=…) when it has one. Ctrl-C stops.
            """
    )

    @Argument(help: "The table's URL, e.g. http://localhost:8080/api/tables/countries")
    var url: String

    @Flag(help: "Redraw the whole table in place after each change, like watch(1).")
    var watch = false

    func run() async throws {
        guard let target = FollowTarget(url) else {
            throw ValidationError("\(url) names no table: expected http://HOST[:PORT]/api/tables/ID")
        }
        let follower = TableFollower(
            client: TableClient(baseURL: target.baseURL), table: target.tableID, query: target.query)
        let printer = FollowPrinter(watch: watch)
        let task = Task {
            for try await event in follower.events() { printer.show(event) }
        }
        await Interrupt.onFirst { task.cancel() }
        do {
            try await task.value
        } catch let error as FollowError {
            throw ValidationError(Self.describe(error))
        }
        printer.say("stopped")
    }

    private static func describe(_ error: FollowError) -> String {
        switch error {
        case .tableDeleted: "the table was deleted"
        case .refused(let problem): "the server refused: \(problem)"
        }
    }
}
