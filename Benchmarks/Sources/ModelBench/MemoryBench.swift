import Glibc
import JSON
import TableModel

/// The memory of a table of `rows` short rows (as `make bench`'s 1,000,000-row
/// table: `{"id":"rN","text":"Row N"}`), decoded from its JSON as `serve --data`
/// does, then edited by `moves` random single-row moves through `Table.apply`.
/// Reports the process's peak and resident memory (`/proc/self/status`) after
/// loading and after the moves, in KiB. Run once per process: the peak is the
/// process's.
enum MemoryBench {
    static func run(rows: Int, moves: Int) {
        var tables: [Table] = []
        do {
            let value = try parsed(rows: rows)
            tables = try ModelDecoder.tables(from: value)
        } catch {
            fatalError("could not load: \(error)")
        }
        // As `serve` does once started (Serve.swift): give the decoder's freed memory back.
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        let loaded = memory()
        var table = tables.removeFirst()
        var random = SplitMix(state: UInt64(rows))
        for _ in 0..<moves {
            let from = TableIndexPath(0, Int.random(in: 0..<rows, using: &random))
            let to = TableIndexPath(0, Int.random(in: 0..<rows, using: &random))
            do {
                _ = try table.apply(Batch(moveRows: [.init(from: from, to: to)]))
            } catch {
                fatalError("refused: \(error)")
            }
        }
        let edited = memory()
        precondition(table.sections[0].rows.count == rows)
        report(
            "memory",
            [
                ("rows", rows), ("moves", moves),
                ("peak_load_kib", loaded.peak), ("rss_load_kib", loaded.resident),
                ("peak_kib", edited.peak), ("rss_moves_kib", edited.resident),
            ])
    }

    /// The JSON value of the table's document; the document's text is let go on
    /// return, before the value is decoded, as `serve --data` lets go of the file's
    /// bytes (`TableFile.load`).
    private static func parsed(rows: Int) throws -> JSONValue {
        var text = #"[{"id":"rows","sections":[{"id":"s","rows":["#
        text.reserveCapacity(rows * 34 + 64)
        for row in 0..<rows {
            if row > 0 { text += "," }
            text += #"{"id":"r\#(row)","text":"Row \#(row)"}"#
        }
        text += "]}]}]"
        return try JSONParser().parse(text)
    }

    /// VmHWM and VmRSS of this process, in KiB.
    private static func memory() -> (peak: Int, resident: Int) {
        var peak = 0
        var resident = 0
        if let file = fopen("/proc/self/status", "r") {
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(cString: line)
                let value =
                    Int(text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                if text.hasPrefix("VmHWM:") { peak = value }
                if text.hasPrefix("VmRSS:") { resident = value }
            }
        }
        return (peak, resident)
    }
}
