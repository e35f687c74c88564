import Glibc
import MicroHTTP
import MicroHTTPTesting
import Testing

/// A folder of public files, a secret file beside it, and symbolic links
/// pointing inside and outside; removed by `deinit`.
final class PublicFolder {
    let base: String
    var root: String { base + "/public" }

    init() throws {
        var template = Array("/tmp/microhttp-files-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        base = String(cString: try #require(created))
        mkdir(root, 0o755)
        mkdir(root + "/sub", 0o755)
        mkdir(root + "/folder", 0o755)
        for name in [
            "style.css", "app.js", "module.mjs", "logo.svg", "image.png", "photo.jpg", "anim.gif",
            "pic.webp", "favicon.ico", "data.json", "index.html", "notes.txt", "font.woff2", "blob.bin",
            "sub/inner.js", ".env",
        ] {
            write(root + "/" + name, "contents of \(name)")
        }
        write(base + "/secret.txt", "TOP-SECRET")
        symlink(base + "/secret.txt", root + "/escape.txt")
        symlink(root + "/style.css", root + "/alias.css")
        symlink(base, root + "/up")
    }

    deinit {
        for name in [
            "style.css", "app.js", "module.mjs", "logo.svg", "image.png", "photo.jpg", "anim.gif",
            "pic.webp", "favicon.ico", "data.json", "index.html", "notes.txt", "font.woff2", "blob.bin",
            "sub/inner.js", ".env", "escape.txt", "alias.css", "up", "large.bin", "big.css",
        ] {
            unlink(root + "/" + name)
        }
        rmdir(root + "/sub")
        rmdir(root + "/folder")
        rmdir(root)
        unlink(base + "/secret.txt")
        rmdir(base)
    }

    func write(_ path: String, _ contents: String) {
        write(path, Array(contents.utf8))
    }

    func write(_ path: String, _ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    func router() -> Router {
        router(files: StaticFiles(root: root))
    }

    /// `/public/…` and the versioned `/assets/{version}/…` over `files`.
    func router(files: StaticFiles) -> Router {
        var router = Router()
        router.add(.GET, "/public/{path...}") { request in
            files.response(for: request.parameters["path"] ?? "", request: request)
        }
        router.add(.GET, "/assets/{version}/{path...}") { request in
            files.response(
                for: request.parameters["path"] ?? "", version: request.parameters["version"] ?? "", request: request)
        }
        return router
    }
}

@Suite struct StaticFilesTests {
    @Test(arguments: TestTransport.allCases)
    func filesCarryTheirContentType(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        let expected = [
            "style.css": "text/css; charset=utf-8",
            "app.js": "text/javascript; charset=utf-8",
            "module.mjs": "text/javascript; charset=utf-8",
            "logo.svg": "image/svg+xml",
            "image.png": "image/png",
            "photo.jpg": "image/jpeg",
            "anim.gif": "image/gif",
            "pic.webp": "image/webp",
            "favicon.ico": "image/x-icon",
            "data.json": "application/json",
            "index.html": "text/html; charset=utf-8",
            "notes.txt": "text/plain; charset=utf-8",
            "font.woff2": "font/woff2",
            "blob.bin": "application/octet-stream",
            "sub/inner.js": "text/javascript; charset=utf-8",
        ]
        try withTestServer(folder.router(), transport: transport) { client in
            for (name, type) in expected {
                let response = try client.execute(path: "/public/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.headers["Content-Type"] == type, "\(name)")
                #expect(response.text == "contents of \(name)")
                #expect(response.headers["Cache-Control"] == "max-age=300")
                #expect(response.headers["Content-Length"] == String("contents of \(name)".utf8.count))
            }
        }
    }

    @Test(arguments: TestTransport.allCases)
    func matchingETagAnswers304(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        try withTestServer(folder.router(), transport: transport) { client in
            let first = try client.execute(path: "/public/style.css")
            let tag = try #require(first.headers["ETag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            let again = try client.execute(path: "/public/style.css", headers: ["If-None-Match": "\"other\", \(tag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["ETag"] == tag)
            let stale = try client.execute(path: "/public/style.css", headers: ["If-None-Match": "\"other\""])
            #expect(stale.status == 200)
        }
    }

    @Test func changedFileGetsANewETag() throws {
        let folder = try PublicFolder()
        let router = folder.router()
        let before = router.respond(to: HTTPRequest(method: .GET, path: "/public/notes.txt")).headers["ETag"]
        folder.write(folder.root + "/notes.txt", "longer contents of notes")
        let after = router.respond(to: HTTPRequest(method: .GET, path: "/public/notes.txt")).headers["ETag"]
        #expect(before != nil && after != nil && before != after)
    }

    @Test(arguments: TestTransport.allCases)
    func headKeepsTheLength(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        try withTestServer(folder.router(), transport: transport) { client in
            let response = try client.execute(method: .HEAD, path: "/public/data.json")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response.headers["Content-Length"] == String("contents of data.json".utf8.count))
        }
    }

    @Test(arguments: TestTransport.allCases)
    func escapesAndOddPathsAreNotFound(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        let attempts = [
            "/public/../secret.txt",
            "/public/%2e%2e/secret.txt",
            "/public/%2E%2E%2Fsecret.txt",
            "/public/sub/../../secret.txt",
            "/public/sub/%2e%2e/style.css",
            "/public/./style.css",
            "/public/%2Fetc%2Fpasswd",
            "/public//etc/passwd",
            "/public/style.css%00.txt",
            "/public/escape.txt",
            "/public/up/secret.txt",
            "/public/.env",
            "/public/folder",
            "/public/sub",
            "/public/",
            "/public/missing.css",
        ]
        try withTestServer(folder.router(), transport: transport) { client in
            for path in attempts {
                let response = try client.execute(path: path)
                #expect(response.status == 404, "\(path)")
                #expect(!response.text.contains("TOP-SECRET"), "\(path)")
            }
        }
    }

    @Test(arguments: TestTransport.allCases)
    func symlinkInsideTheRootIsServed(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        try withTestServer(folder.router(), transport: transport) { client in
            let response = try client.execute(path: "/public/alias.css")
            #expect(response.status == 200)
            #expect(response.text == "contents of style.css")
        }
    }

    @Test func largeFileArrivesWhole() throws {
        let folder = try PublicFolder()
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        folder.write(folder.root + "/large.bin", bytes)
        try withTestServer(folder.router(), transport: .live) { client in
            let response = try client.execute(path: "/public/large.bin")
            #expect(response.status == 200)
            #expect(response.body == bytes)
        }
    }
}

/// Text files compressed once at start-up, and every file under a name that
/// carries the hash of all of them.
@Suite struct StaticFileCachingTests {
    static let css = Array(String(repeating: ".cell { color: red; padding: 4px 8px; }\n", count: 200).utf8)

    @Test(arguments: [ContentCoding.gzip, .br])
    func textFilesAreSentCompressedFromStartUp(_ coding: ContentCoding) throws {
        let folder = try PublicFolder()
        folder.write(folder.root + "/big.css", Self.css)
        try withTestServer(folder.router(), transport: .live) { client in
            let plain = try client.execute(path: "/public/big.css")
            let tag = try #require(plain.headers["ETag"])
            #expect(plain.headers["Content-Encoding"] == nil)
            #expect(plain.headers["Vary"] == "Accept-Encoding")
            let coded = try client.execute(path: "/public/big.css", headers: ["Accept-Encoding": coding.token])
            #expect(coded.headers["Content-Encoding"] == coding.token)
            #expect(coded.headers["ETag"] == ContentEncoding.tag(tag, in: coding))
            #expect(coded.headers["Vary"] == "Accept-Encoding")
            #expect(coded.body.count * 20 < Self.css.count)
            #expect(try coded.decodedBody() == Self.css)
            let again = try client.execute(
                path: "/public/big.css",
                headers: ["Accept-Encoding": coding.token, "If-None-Match": ContentEncoding.tag(tag, in: coding)])
            #expect(again.status == 304)
            #expect(again.headers["ETag"] == ContentEncoding.tag(tag, in: coding))

            // Changed after start-up: sent from the disk as it is now.
            folder.write(folder.root + "/big.css", Array("p { }".utf8))
            let changed = try client.execute(path: "/public/big.css", headers: ["Accept-Encoding": coding.token])
            #expect(changed.headers["Content-Encoding"] == nil)
            #expect(changed.text == "p { }")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func versionedNamesAreImmutableAndOnlyTheCurrentOneServes(_ transport: TestTransport) throws {
        let folder = try PublicFolder()
        let files = StaticFiles(root: folder.root)
        #expect(files.version.count == 12)
        #expect(files.version.allSatisfy { $0.isHexDigit })
        try withTestServer(folder.router(files: files), transport: transport) { client in
            let versioned = try client.execute(path: "/assets/\(files.version)/sub/inner.js")
            #expect(versioned.status == 200)
            #expect(versioned.headers["Cache-Control"] == "max-age=31536000, immutable")
            #expect(versioned.text == "contents of sub/inner.js")
            let plain = try client.execute(path: "/public/sub/inner.js")
            #expect(plain.headers["Cache-Control"] == "max-age=300")
            #expect(plain.headers["ETag"] == versioned.headers["ETag"])
            #expect(try client.execute(path: "/assets/000000000000/sub/inner.js").status == 404)
            #expect(try client.execute(path: "/assets/\(files.version)/../secret.txt").status == 404)
            #expect(try client.execute(path: "/assets/\(files.version)/escape.txt").status == 404)

            // A file changed since start-up is no longer what the hash promised.
            folder.write(folder.root + "/sub/inner.js", "changed and longer")
            #expect(try client.execute(path: "/assets/\(files.version)/sub/inner.js").status == 404)
            #expect(try client.execute(path: "/public/sub/inner.js").text == "changed and longer")
        }
    }

    @Test func theVersionFollowsTheContents() throws {
        let folder = try PublicFolder()
        let before = StaticFiles(root: folder.root).version
        #expect(StaticFiles(root: folder.root).version == before)
        folder.write(folder.root + "/app.js", "contents of app.js, changed")
        #expect(StaticFiles(root: folder.root).version != before)
    }
}
