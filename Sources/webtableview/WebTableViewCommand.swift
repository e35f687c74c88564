import ArgumentParser
import Foundation

/// `webtableview`: UIKit's table view, served over HTTP.
@main
struct WebTableViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webtableview",
        abstract: "UIKit's table view, served over HTTP.",
        discussion: "Serves tables as JSON endpoints and live HTML table views; see README.md.",
        version: WebTableViewCommand.version,
        subcommands: [Serve.self, Check.self, Import.self, Follow.self, Audit.self],
        defaultSubcommand: Serve.self
    )

    /// What `webtableview --version` prints.
    static let version = "webtableview 1.0.0"

    /// Like ArgumentParser's own `main()`, but bad usage exits with status 2 (README.md).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
