/// Content types of the files a web page is made of, by file extension.
enum MediaType {
    static let fallback = "application/octet-stream"

    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else {
            return fallback
        }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? fallback
    }

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        // The WHATWG sniffing standard names icons image/x-icon, as browsers and
        // REDbot read them; the IANA name image/vnd.microsoft.icon is flagged as a mismatch.
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "wasm": "application/wasm",
        "webmanifest": "application/manifest+json",
    ]
}
