// swift-tools-version: 6.0
// A client generated from the server's OpenAPI document by
// apple/swift-openapi-generator, kept out of the product:
// scripts/test-openapi-client.sh builds it (its own .build here) and runs it
// against a live server. The document is the server's own, through the symlink
// Sources/OpenAPIClientCheck/openapi.json, so the client never drifts from it.
import PackageDescription

let package = Package(
    name: "OpenAPIClientCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "OpenAPIClientCheck",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        )
    ]
)
