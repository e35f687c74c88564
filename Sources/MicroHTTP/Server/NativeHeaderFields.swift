import CMicroHTTPD

/// Header fields made once into the NUL-terminated bytes libmicrohttpd
/// copies them from, to add to many responses.
///
/// Passing a Swift `String` where C wants a `const char *` may make a
/// temporary copy of it (a short string is stored inline, not as C bytes);
/// fields added to every response, or to every response made from a shared
/// answer (``SharedAnswers``), are converted here once instead.
final class NativeHeaderFields: Sendable {
    /// The fields as converted, for comparing with the next set.
    let headers: HTTPHeaders
    /// Each field's name then its value, each followed by a NUL.
    private let bytes: [CChar]
    /// Where each field's name and value start in `bytes`.
    private let starts: [(name: Int, value: Int)]

    init(_ headers: HTTPHeaders) {
        self.headers = headers
        var bytes: [CChar] = []
        var starts: [(name: Int, value: Int)] = []
        for (name, value) in headers where !HTTPHeaders.sameName(name, "Content-Length") {
            let nameStart = bytes.count
            bytes.append(contentsOf: name.utf8CString)
            starts.append((nameStart, bytes.count))
            bytes.append(contentsOf: value.utf8CString)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// Adds every field to `native`, in order.
    func add(to native: OpaquePointer) {
        bytes.withUnsafeBufferPointer { bytes in
            for start in starts {
                _ = MHD_add_response_header(native, bytes.baseAddress! + start.name, bytes.baseAddress! + start.value)
            }
        }
    }
}
