// swift-tools-version: 5.4
// (5.4: from 5.5 on, SwiftPM links an executable's entry point under another
// name, which a harness does not have: libFuzzer's runtime provides `main`.)
// libFuzzer harnesses of WebTableView, kept out of the product: `scripts/fuzz.sh`
// builds them with AddressSanitizer and libFuzzer's coverage, links libFuzzer
// into the harnesses alone (`linkerSettings`), and runs each over its seed corpus
// in `Corpus/<harness>/`. See docs/RELIABILITY.md, Fuzzing.
//
//   FuzzDecode  JSON parsing, the strict model decoders, and their round trips
//   FuzzBatch   the batch engine on a fixed table: refusals change nothing, accepted batches do what they say
//   FuzzDiff    snapshot diffs of two tables, replayed with the batch engine
//   FuzzHTTP    percent-decoding, query splitting, route matching and static-file paths
//   FuzzFraming repeated and conflicting Content-Length, Host and Transfer-Encoding fields
import Foundation
import PackageDescription

/// The product package is `..`; SwiftPM names it after its folder.
let product = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Swift 6 language mode, as the product uses.
let swift6: [SwiftSetting] = [.unsafeFlags(["-swift-version", "6"])]
/// A harness over the product's `products`. It has no `main`: libFuzzer's runtime,
/// linked here and nowhere else, provides it.
func harness(_ name: String, _ products: String...) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: product) },
        swiftSettings: [.unsafeFlags(["-swift-version", "6", "-parse-as-library"])],
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]
    )
}

let package = Package(
    name: "WebTableViewFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "TableModel", package: product)],
            swiftSettings: swift6
        ),
        harness("FuzzDecode", "JSON", "TableModel"),
        harness("FuzzBatch", "JSON", "TableModel"),
        harness("FuzzDiff", "TableModel"),
        harness("FuzzHTTP", "MicroHTTP"),
        harness("FuzzFraming", "MicroHTTP"),
    ]
)
