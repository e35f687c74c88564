// swift-tools-version: 6.2
// Benchmarks of WebTableView, kept out of the product: `scripts/bench/run.sh`
// builds and runs them. Nothing here is a test.
//
//   ModelBench      model micro-benchmarks (edits at 1k and 1M rows, snapshot diff, the client's mirror)
//   HummingbirdRow  a minimal Hummingbird 2 server answering fixed bytes, to compare against
import Foundation
import PackageDescription

/// The product package is `..`; SwiftPM names it after its folder.
let product = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "WebTableViewBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "ModelBench",
            dependencies: [
                .product(name: "TableModel", package: product), .product(name: "JSON", package: product),
                .product(name: "WebTableViewClient", package: product),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "HummingbirdRow",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
