import Foundation
import TableModel

/// What `serve` says on standard error while it loads a large file (1 MB or
/// more): its size before, how much of it is read as it goes (CSV), its rows
/// and the time taken after.
struct LoadProgress {
    static let reportedBytes = 1_000_000

    let file: String
    private let start: Date?

    init(file: String) {
        self.file = file
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size >= Self.reportedBytes else {
            start = nil
            return
        }
        start = Date()
        Self.say("\(file): loading \(Self.megabytes(size)) MB…")
    }

    /// `fraction` of the file has been read.
    func read(_ fraction: Double) {
        guard start != nil else { return }
        Self.say("\(file): \(Int(fraction * 100))% read…")
    }

    func finished(_ tables: [Table]) {
        guard let start else { return }
        let rows = tables.reduce(0) { $0 + $1.rowCount }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
        Self.say("\(file): \(rows) rows in \(tables.count) \(tables.count == 1 ? "table" : "tables"), \(seconds) s")
    }

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
