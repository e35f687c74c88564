import Glibc

/// Files under one folder, served with their content type, an `ETag` built
/// from size and modification time, and `Cache-Control`.
///
/// Anything that could leave the folder answers 404: `..` and `.`
/// components, absolute paths, NUL bytes, and symbolic links resolving
/// outside it. Hidden files (a component starting with `.`) and folders
/// answer 404 too.
public struct StaticFiles: Sendable {
    /// The folder, with symbolic links resolved.
    public let root: String
    /// The `Cache-Control` value of every answer.
    public var cacheControl: String

    public init(root: String, cacheControl: String = "max-age=300") {
        self.root = Self.resolve(root) ?? root
        self.cacheControl = cacheControl
    }

    /// The answer for `relativePath` (already percent-decoded, as routes
    /// capture it): the file, 304 when `If-None-Match` names its `ETag`, or 404.
    public func response(for relativePath: String, request: HTTPRequest) -> HTTPResponse {
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
        let tag = "\"\(String(status.st_size, radix: 16))-\(String(status.st_mtim.tv_sec, radix: 16))"
            + "\(String(status.st_mtim.tv_nsec, radix: 16))\""
        var headers: HTTPHeaders = ["ETag": tag, "Cache-Control": cacheControl]
        if let condition = request.headers["If-None-Match"], Self.matches(condition, tag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add("Content-Type", MediaType.forPath(resolved))
        headers.add("X-Content-Type-Options", "nosniff")
        return HTTPResponse(headers: headers, body: .file(path: resolved, size: Int(status.st_size)))
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

    private static func matches(_ condition: String, _ tag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let trimmed = candidate.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            let value = String(trimmed)
            return value == "*" || value == tag || value == "W/" + tag
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
