import JSON
import TableModel

/// The tables `webtableview serve` shows when it is given no `--data`: the
/// classic table-view lessons' countries and US cities grouped by state.
/// Their JSON is `examples/*.json`, built into the binary by the EmbedFiles plugin.
public enum DemoTables {
    /// Every demo table, decoded from the embedded JSON.
    public static var all: [Table] {
        sources.flatMap { source in
            do {
                return try ModelDecoder.tables(from: try JSONParser().parse(source.json))
            } catch {
                preconditionFailure("demo table \(source.file) is invalid: \(error)")
            }
        }
    }

    /// The files of examples/, by name, as built in.
    static var sources: [(file: String, json: String)] {
        EmbeddedFiles.texts.compactMap { file in
            file.path.hasPrefix("examples/") ? (String(file.path.dropFirst("examples/".count)), file.text) : nil
        }
    }
}
