import FuzzSupport
import Glibc
@testable import MicroHTTP

/// Reads a method (first byte) and a request target (the rest) and routes the
/// request as the server would, checking each step: `unescapeURL` decodes as
/// specified (in `RequestTarget`); the router picks the route, or answers 404,
/// 405 with `Allow`, or 204 to OPTIONS, exactly as a brute-force matcher says;
/// the handler sees parameters that rebuild the path; and `StaticFiles` never
/// answers a file outside its folder, hidden, or not a regular file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let method = HTTPMethod.allCases[Int(first) % HTTPMethod.allCases.count]
    let target = RequestTarget(bytes.dropFirst())
    let request = HTTPRequest(method: method, path: target.path, query: target.query)
    let (response, matched) = router.dispatch(request)
    let pattern = matched?.pattern
    guard let expected = ReferenceRoutes.expected(method, target.path) else {
        // A near-miss (a trailing slash, an empty segment) of a route's path
        // is redirected there; anything else is not found.
        if let canonical = ReferenceRoutes.withoutEmptySegments(target.path),
            ReferenceRoutes.expected(method, canonical) != nil
        {
            require(response.status == 308 && pattern == nil, "\(method) \(target.path): \(response.status), not 308")
            let location = response.headers["Location"] ?? ""
            require(
                location.split(separator: "?", maxSplits: 1).first.map(String.init) == percentEncodedPath(canonical),
                "\(method) \(target.path): Location \(location), not \(canonical)")
            return 0
        }
        require(response.status == 404 && pattern == nil, "\(method) \(target.path): \(response.status), not 404")
        return 0
    }
    if let route = expected.pattern {
        require(pattern == route, "\(method) \(target.path) went to \(pattern ?? "nothing"), not \(route)")
        return 0
    }
    var allowed = expected.allowed.union([.OPTIONS])
    if allowed.contains(.GET) { allowed.insert(.HEAD) }
    let allow = response.headers["Allow"].map {
        Set($0.split(separator: ", ").compactMap { HTTPMethod(rawValue: String($0)) })
    }
    require(allow == allowed, "\(method) \(target.path): Allow \(response.headers["Allow"] ?? "missing")")
    require(response.status == (method == .OPTIONS ? 204 : 405), "\(method) \(target.path): \(response.status)")
    return 0
}

/// Every reference route, answering 200 after checking that its parameters
/// rebuild the path; `/public/…` serves `StaticFixture` through `StaticFiles`.
private let router: Router = {
    var router = Router()
    let files = StaticFiles(root: StaticFixture.root)
    for (method, pattern) in ReferenceRoutes.all {
        router.add(method, pattern) { request in
            let rebuilt = ReferenceRoutes.rebuild(pattern, request.parameters)
            require(
                rebuilt == request.path || rebuilt == request.path + "/",
                "\(pattern) called for \(request.path), rebuilt \(rebuilt)")
            guard pattern.hasPrefix("/public/") else { return HTTPResponse(status: 200) }
            let response = files.response(for: request.parameters["path"] ?? "", request: request)
            requireInside(files.root, response, request.path)
            return response
        }
    }
    return router
}()

/// A static answer is 404, or a regular, visible file below `root`.
private func requireInside(_ root: String, _ response: HTTPResponse, _ path: String) {
    guard case .file(let file, _) = response.body else {
        require(response.status == 404, "\(path): \(response.status) without a file")
        return
    }
    let relative = file.dropFirst(root.count + 1)
    require(
        file.hasPrefix(root + "/") && !relative.split(separator: "/").contains { $0.hasPrefix(".") },
        "\(path) served \(file), outside \(root) or hidden")
    var status = stat()
    require(
        stat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG, "\(path) served \(file), not a regular file")
}

/// `path` with every byte outside RFC 3986's pchar set (less `%`, which a
/// decoded path holds as itself) percent-encoded, as a `Location` carries it.
private func percentEncodedPath(_ path: String) -> String {
    let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
    let hex = Array("0123456789ABCDEF")
    return path.utf8.map { kept.contains($0) ? String(UnicodeScalar($0)) : "%\(hex[Int($0 >> 4)])\(hex[Int($0 & 15)])" }
        .joined()
}
