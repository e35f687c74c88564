import Foundation
import PackagePlugin

/// Builds JSON files into a target at build time, as string constants of a
/// generated `EmbeddedFiles.swift` (never in git): the `*.json` files of the
/// target's folder, `Sources/NAME` (TableServer's `OpenAPI/openapi.json`), and the package's
/// `examples/*.json` (the demo tables). The binary then needs no file beside it,
/// wherever it is installed, and reads no file at start-up.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let files =
            Self.jsonFiles(in: package.appending(path: "Sources").appending(path: target.name))
            + Self.jsonFiles(in: package.appending(path: "examples"))
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        let root = package.standardizedFileURL.path(percentEncoded: false)
        // Each file as its path in the package, then where it is.
        let arguments =
            [output.path(percentEncoded: false)]
            + files.flatMap { file in
                let path = file.standardizedFileURL.path(percentEncoded: false)
                return [String(path.dropFirst(root.count).drop { $0 == "/" }), path]
            }
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) JSON files in \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: arguments,
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// The `.json` files of `folder` and its subfolders, sorted by path.
    private static func jsonFiles(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
            .sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
    }
}
