import Foundation
import WebTableViewClient

/// Writes what a follower reports to standard output: the transcript's lines,
/// or with `watch` the whole table redrawn in place after each change.
struct FollowPrinter: Sendable {
    var watch: Bool

    func show(_ event: FollowEvent) {
        switch event {
        case .update(let update) where watch:
            // Home, clear the screen: the table redrawn in place.
            let lines = ["\u{1B}[H\u{1B}[2J" + (UpdateTranscript.lines(for: update).first ?? "")]
            write(lines + UpdateTranscript.lines(for: update.table))
        case .update(let update) where update.isReload:
            write(UpdateTranscript.lines(for: update.table))
        case .update(let update):
            write(UpdateTranscript.lines(for: update))
        case .disconnected(let reason):
            say("the server is gone (\(reason)); reconnecting")
        case .reconnected:
            say("the server is back")
        }
    }

    func say(_ line: String) { write(["-- " + line]) }

    private func write(_ lines: [String]) {
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
