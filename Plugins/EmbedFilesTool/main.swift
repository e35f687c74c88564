import Foundation

// Writes a Swift file holding the text of each file given, for the EmbedFiles
// build plugin (Plugins/EmbedFiles).
// Usage: EmbedFilesTool OUTPUT.swift [NAME PATH]...
// NAME is the file's path in the package, as the code asks for it (no quote or backslash).

/// `text` as a multi-line raw string literal whose value is exactly `text`:
/// as many `#` as it takes that no quote or backslash in the text ends the
/// literal or starts an escape.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    // The line break before the closing delimiter is not part of the value.
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count % 2 == 1 else {
    FileHandle.standardError.write(Data("usage: EmbedFilesTool OUTPUT.swift [NAME PATH]...\n".utf8))
    exit(2)
}
let pairs = Array(arguments.dropFirst())
var swift = """
    // Generated at build time by the EmbedFiles plugin (Plugins/EmbedFiles); not in git.
    enum EmbeddedFiles {
        /// The text of each embedded file, by its path in the package.
        static let texts: [(path: String, text: String)] = [

    """
for index in stride(from: 0, to: pairs.count, by: 2) {
    let (name, path) = (pairs[index], pairs[index + 1])
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
        !text.contains("\r"), !name.contains("\""), !name.contains("\\")
    else {
        FileHandle.standardError.write(Data("EmbedFilesTool: \(path) is not UTF-8 text with line feeds\n".utf8))
        exit(1)
    }
    swift += "(\"\(name)\", \(literal(text))),\n"
}
swift += "]\n}\n"
do {
    try swift.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("EmbedFilesTool: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
