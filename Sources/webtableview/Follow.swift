import ArgumentParser
import Foundation

/// `webtableview follow URL [--watch]`: runs `webtableview-follow`, the
/// client's own executable installed beside this one (README.md, "Following a
/// table"). The server binary does not link the client: URLSession would bring
/// FoundationNetworking and libcurl into it (docs/ARCHITECTURE.md, "The client library").
struct Follow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a served table, then each change as it arrives (webtableview-follow URL [--watch]).")

    @Argument(parsing: .captureForPassthrough, help: "URL [--watch], as webtableview-follow takes them.")
    var arguments: [String] = []

    func run() throws {
        let own =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let follow = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("webtableview-follow")
            .path
        let argv = ([follow] + arguments).map { strdup($0) } + [nil]
        execv(follow, argv)
        throw ValidationError("cannot run \(follow): \(String(cString: strerror(errno)))")
    }
}
