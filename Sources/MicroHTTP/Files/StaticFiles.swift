import Glibc

/// Files under one folder, served with their content type, an `ETag` built
/// from size and modification time, and `Cache-Control`.
///
/// Anything that could leave the folder answers 404: `..` and `.`
/// components, absolute paths, NUL bytes, and symbolic links resolving
/// outside it. Hidden files (a component starting with `.`) and folders
/// answer 404 too.
///
/// At start-up every file is read once: text files (``ContentEncoding/isCompressible(_:)``)
/// are compressed in gzip and br at the highest settings and kept in memory,
/// and all files together make ``version``, a hash of their names and
/// contents. A file is sent compressed while it is as it was at start-up;
/// one changed since is sent from the disk as it is.
public struct StaticFiles: Sendable {
    /// The folder, with symbolic links resolved.
    public let root: String
    /// The `Cache-Control` of answers under the plain names.
    public var cacheControl: String
    /// The `Cache-Control` of answers under the versioned names.
    public static let immutable = "max-age=31536000, immutable"
    /// A hash of every file's relative path and contents at start-up: the
    /// versioned names (``response(for:version:request:)``) carry it, so a
    /// new release of the files is a new name no cache has seen.
    public let version: String
    /// Files as read at start-up, by relative path.
    private let files: [String: StoredFile]

    /// A file as read at start-up: its tag then, and its compressed codings
    /// (only those smaller than the file), by ``ContentCoding/rawValue``.
    private struct StoredFile: Sendable {
        let tag: String
        let coded: [Int: [UInt8]]
    }

    public init(root: String, cacheControl: String = "max-age=300") {
        self.root = Self.resolve(root) ?? root
        self.cacheControl = cacheControl
        var files: [String: StoredFile] = [:]
        var hash = ContentHash()
        for relativePath in Self.regularFiles(below: self.root).sorted() {
            let path = self.root + "/" + relativePath
            var status = stat()
            guard stat(path, &status) == 0, let bytes = Self.read(path, size: Int(status.st_size)) else {
                continue
            }
            hash.combine(relativePath.utf8)
            hash.combine([0])
            hash.combine(bytes)
            var coded: [Int: [UInt8]] = [:]
            if ContentEncoding.isCompressible(MediaType.forPath(path)) {
                for coding in [ContentCoding.gzip, .br] {
                    if let compressed = Compressor.compress(bytes, coding, effort: .once),
                        compressed.count < bytes.count
                    {
                        coded[coding.rawValue] = compressed
                    }
                }
            }
            files[relativePath] = StoredFile(tag: Self.tag(of: status), coded: coded)
        }
        self.files = files
        self.version = String(hash.hex.prefix(12))
    }

    /// The answer for `relativePath` (already percent-decoded, as routes
    /// capture it): the file, 304 when `If-None-Match` names its `ETag`, or 404.
    public func response(for relativePath: String, request: HTTPRequest) -> HTTPResponse {
        response(for: relativePath, request: request, cacheControl: cacheControl, onlyAsStored: false)
    }

    /// The answer for `relativePath` under the versioned name `version`:
    /// ``immutable`` while `version` is the files' ``version`` and the file is
    /// as it was read at start-up; 404 otherwise (an old release's name).
    public func response(for relativePath: String, version: String, request: HTTPRequest) -> HTTPResponse {
        guard version == self.version else {
            return notFound(relativePath)
        }
        return response(for: relativePath, request: request, cacheControl: Self.immutable, onlyAsStored: true)
    }

    private func response(
        for relativePath: String, request: HTTPRequest, cacheControl: String, onlyAsStored: Bool
    ) -> HTTPResponse {
        guard Self.isSafe(relativePath),
            let resolved = Self.resolve(root + "/" + relativePath),
            resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        else {
            return notFound(relativePath)
        }
        var status = stat()
        guard stat(resolved, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return notFound(relativePath)
        }
        let tag = Self.tag(of: status)
        let stored = files[relativePath].flatMap { $0.tag == tag ? $0 : nil }
        if onlyAsStored, stored == nil {
            return notFound(relativePath)
        }
        var headers: HTTPHeaders = ["ETag": tag, "Cache-Control": cacheControl]
        if let condition = request.headers["If-None-Match"], EntityTagList(condition).matchesWeakly(tag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add("Content-Type", MediaType.forPath(resolved))
        headers.add("X-Content-Type-Options", "nosniff")
        if let coded = stored?.coded[request.contentCoding.rawValue] {
            headers.set("ETag", ContentEncoding.tag(tag, in: request.contentCoding))
            headers.add("Content-Encoding", request.contentCoding.token)
            ContentEncoding.addVary(to: &headers)
            return HTTPResponse(headers: headers, body: .bytes(coded))
        }
        return HTTPResponse(headers: headers, body: .file(path: resolved, size: Int(status.st_size)))
    }

    private static func tag(of status: stat) -> String {
        "\"\(String(status.st_size, radix: 16))-\(String(status.st_mtim.tv_sec, radix: 16))"
            + "\(String(status.st_mtim.tv_nsec, radix: 16))\""
    }

    /// Paths, relative to `folder`, of the regular files below it, not
    /// following symbolic links and leaving out hidden names.
    private static func regularFiles(below folder: String, prefix: String = "") -> [String] {
        guard let directory = opendir(folder) else {
            return []
        }
        defer { closedir(directory) }
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else {
                continue
            }
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else {
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: found.append(prefix + name)
            case S_IFDIR: found += regularFiles(below: folder + "/" + name, prefix: prefix + name + "/")
            default: break
            }
        }
        return found
    }

    private static func read(_ path: String, size: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return nil
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, size - offset) }
            guard count > 0 else {
                return nil
            }
            offset += count
        }
        return bytes
    }

    private func notFound(_ relativePath: String) -> HTTPResponse {
        .problem(status: 404, type: "not-found", detail: "There is no file \(relativePath).")
    }

    /// Relative, NUL-free, and made of plain names only.
    private static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else {
            return false
        }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && !$0.hasPrefix(".")
        }
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else {
            return nil
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
