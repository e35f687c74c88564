// swift-tools-version: 6.0
// WebTableView — UIKit's table view, served over HTTP.
//
// Layers (dependencies point one way, left to right):
//
//   CMicroHTTPD, CSendRing, CZlib, CBrotli → MicroHTTP ──┐
//   CAllocator → ProcessMetrics ─────────────────────────┤
//   JSON → TableModel → TableRendering → TableServer → webtableview
//   JSON → TableModel → TableAccess (policies, rows bound to views) ──────────↗
//                       TableAccess → AccessTokens (jwt-kit, swift-crypto) → webtableview
//                     ↘ TableJournal ↗
//                     ↘ TableImport ↗
//   CLibPQ → TableDatabase ─────────────────────────↗
//   JSON → TableModel → WebTableViewClient → webtableview-follow (never in the server)
//
// MicroHTTP knows nothing of tables; ProcessMetrics reads the process's own
// figures (/proc, the allocator) and knows nothing of HTTP; TableModel does no
// I/O; TableJournal does file I/O only (no HTTP); TableDatabase holds every SQL
// statement and knows tables only as ids, versions and JSON bytes.
//
// The server is Linux with glibc only: MicroHTTP runs libmicrohttpd's epoll
// loops, ProcessMetrics reads /proc, the journal calls fdatasync, CAllocator asks glibc,
// CSendRing uses io_uring where the kernel allows it (README.md, "Platform").
// The `platforms:` line is for the client library alone (docs/CLIENT.md): the
// Apple systems whose Swift runtime has what it uses (Duration, typed throws).
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
let package = Package(
    name: "WebTableView",
    platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .executable(name: "webtableview", targets: ["webtableview"]),
        // For the model micro-benchmarks in Benchmarks/ (a separate package).
        .library(name: "TableModel", targets: ["TableModel"]),
        // For the libFuzzer harnesses in Fuzz/ (a separate package).
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        // For apps that follow a served table (docs/CLIENT.md): Linux and Apple platforms.
        .library(name: "WebTableViewClient", targets: ["WebTableViewClient"]),
        .executable(name: "webtableview-follow", targets: ["webtableview-follow"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // TreeSet, the persistent hash set of a table's ids (TableModel/Values/TableIDIndex.swift).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Bearer JWTs (TableAccess): Vapor's JWT library, kept up, on swift-crypto (BoringSSL).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // HMAC-SHA256 of share links (AccessTokens/ShareLinks.swift): jwt-kit's own crypto, named for its HMAC.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // gzip and br for compressed answers (docs/API.md, Compression).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),
        // The one way to glibc's allocator (heap in use, handing free heap back).
        .target(name: "CAllocator"),
        // One event to many sockets in one system call (io_uring; docs/ARCHITECTURE.md).
        .target(name: "CSendRing"),
        // A cache line asked for ahead of its use (a view's rows as it opens).
        .target(name: "CPrefetch"),
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD", "CSendRing", "CZlib", "CBrotli", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MicroHTTPTesting",
            dependencies: ["MicroHTTP", "CBrotli", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The process's own figures for /metrics: memory, CPU, descriptors, heap in use.
        .target(name: "ProcessMetrics", dependencies: ["CAllocator"], swiftSettings: strict),
        // The server's test fixtures: the fixture table, servers over it, JSON and event-stream reading (tests only).
        .target(
            name: "TableServerTesting",
            dependencies: [
                "TableServer", "TableModel", "JSON", "MicroHTTP", "MicroHTTPTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The one seeded random generator of the property tests (tests only).
        .target(name: "SeededRandom", swiftSettings: strict),
        // A child process a test starts, with a watchdog that kills it past a limit (tests only).
        .target(name: "ChildProcess", dependencies: ["MicroHTTPTesting"], swiftSettings: strict),
        .target(name: "JSON", swiftSettings: strict),
        // Plain settings, no unsafe flags: WebTableViewClient, which apps take as a
        // remote dependency, builds it, and SwiftPM refuses unsafeFlags there.
        .target(
            name: "TableModel",
            dependencies: ["JSON", "CPrefetch", .product(name: "HashTreeCollections", package: "swift-collections")],
            swiftSettings: strict),
        // The client library (docs/CLIENT.md): URLSession, TableModel's own batches.
        .target(name: "WebTableViewClient", dependencies: ["TableModel", "JSON"], swiftSettings: strict),
        .executableTarget(
            name: "webtableview-follow",
            dependencies: [
                "WebTableViewClient", "TableModel", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TableRendering",
            dependencies: ["TableModel", "JSON", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strict
        ),
        .target(name: "TableJournal", dependencies: ["TableModel", "JSON"], swiftSettings: strict),
        // CSV in and out: files into Table documents (`webtableview import`, `serve FILE.csv`),
        // tables into CSV (`GET /api/tables/{t}?format=csv`); its own RFC 4180 reader.
        .target(name: "TableImport", dependencies: ["TableModel", "JSON"], swiftSettings: strict),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "TableDatabase", dependencies: ["CLibPQ"], swiftSettings: strict),
        // Who may read, edit and administer each table (docs/ACCESS.md): the policy file, its
        // rules and grants; the claims of a verified token, and what verifies one (a protocol).
        .target(name: "TableAccess", dependencies: ["JSON", "TableModel"], swiftSettings: strict),
        // The signed tokens (docs/ACCESS.md): bearer JWTs verified with jwt-kit, share links'
        // HMAC-SHA256. jwt-kit, with BoringSSL, is linked by the executable alone, not by
        // TableServer, the client or the fuzzers; the server is passed them as TableAccess's protocols.
        .target(
            name: "AccessTokens",
            dependencies: [
                "JSON", "TableAccess", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TableServer",
            dependencies: [
                "MicroHTTP", "ProcessMetrics", "TableModel", "TableRendering", "TableJournal", "TableDatabase",
                "TableImport", "TableAccess", "JSON",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            // The OpenAPI document (OpenAPI/openapi.json) and the demo tables (examples/*.json), built in.
            plugins: ["EmbedFiles"]
        ),
        .plugin(
            name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"], path: "Plugins/EmbedFiles"),
        .executableTarget(name: "EmbedFilesTool", path: "Plugins/EmbedFilesTool", swiftSettings: strict),
        .executableTarget(
            name: "webtableview",
            dependencies: [
                "TableServer", "CAllocator", "TableModel", "TableJournal", "TableDatabase", "TableImport",
                "TableAccess", "AccessTokens", "JSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "webtableviewTests",
            dependencies: [
                "webtableview", "CAllocator", "TableModel", "TableJournal", "TableServer", "TableServerTesting",
                "MicroHTTPTesting", "ChildProcess",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "SeededRandom"], swiftSettings: strict),
        .testTarget(
            name: "TableModelTests", dependencies: ["TableModel", "JSON", "SeededRandom"], swiftSettings: strict),
        // The model's one suite with concurrency: values shared across tasks.
        .testTarget(name: "TableModelSharingTests", dependencies: ["TableModel"], swiftSettings: strict),
        .testTarget(
            name: "TableRenderingTests",
            dependencies: [
                "TableRendering", "TableModel", "JSON", .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strict),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "MicroHTTPTesting"], swiftSettings: strict),
        .testTarget(name: "ProcessMetricsTests", dependencies: ["ProcessMetrics"], swiftSettings: strict),
        .testTarget(
            name: "WebTableViewClientTests",
            dependencies: [
                "WebTableViewClient", "TableServer", "TableServerTesting", "TableModel", "TableJournal", "JSON",
                "ChildProcess",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TableImportTests", dependencies: ["TableImport", "TableModel", "JSON", "SeededRandom"],
            swiftSettings: strict),
        .testTarget(name: "TableDatabaseTests", dependencies: ["TableDatabase", "TableModel"], swiftSettings: strict),
        .testTarget(
            name: "TableJournalTests", dependencies: ["TableJournal", "TableModel", "JSON", "SeededRandom"],
            swiftSettings: strict),
        .testTarget(
            name: "TableServerTests",
            dependencies: [
                "TableServer", "TableServerTesting", "TableAccess", "TableModel", "TableRendering", "TableJournal",
                "JSON", "MicroHTTP", "MicroHTTPTesting",
            ],
            swiftSettings: strict
        ),
        // The access checks over HTTP with real signed tokens (jwt-kit mints them).
        .testTarget(
            name: "ServerAccessTests",
            dependencies: [
                "TableServer", "TableServerTesting", "TableAccess", "AccessTokens", "TableModel", "TableJournal",
                "JSON", "MicroHTTP", "MicroHTTPTesting", .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict
        ),
    ]
)

// A sanitizer's build has the targets whose tests it runs, and nothing else
// (scripts/test-sanitizers.sh names the sanitizer; docs/RELIABILITY.md,
// Sanitizers). Neither builds the signed tokens: AccessTokens, with jwt-kit's
// stack (swift-crypto and BoringSSL, swift-certificates, swift-asn1), is half
// of a sanitizer build's compiling (ThreadSanitizer: 168 of 356 CPU seconds),
// for code that starts no thread and reaches C only through BoringSSL. So the
// executable that links it, its tests, and the access tests that mint tokens
// with it run in every plain swift test only; the server's access checks,
// which see tokens through TableAccess's protocols, run under both in
// TableServerTests. Neither runs the client library's tests: its URLSession
// transport delivers no byte of an event stream under AddressSanitizer, and
// leaks in its own libcurl callbacks. Under ThreadSanitizer the suites of pure
// values, which start no thread or task, are left to AddressSanitizer.
if let sanitizer = Context.environment["WEBTABLEVIEW_SANITIZER"] {
    var leftOut: Set<String> = [
        "AccessTokens", "webtableview", "webtableviewTests", "ServerAccessTests", "WebTableViewClient",
        "webtableview-follow", "WebTableViewClientTests",
    ]
    if sanitizer == "thread" {
        leftOut.formUnion(["JSONTests", "TableModelTests", "TableRenderingTests", "TableImportTests"])
    }
    package.targets.removeAll { leftOut.contains($0.name) }
    package.products.removeAll { leftOut.contains($0.name) }
}
