import CMicroHTTPD
import Glibc

// The C callbacks libmicrohttpd calls. They capture nothing: the server and
// per-request objects travel through the `void *` arguments (see Unmanaged).

let accessHandler: MHD_AccessHandlerCallback = { server, connection, url, method, version, upload, uploadSize, slot in
    guard let server, let connection, let url, let method, let uploadSize, let slot else {
        return .NO
    }
    // The running server holds itself (see HTTPServer.start()): borrowed,
    // not retained, so worker threads never write its reference count.
    return Unmanaged<HTTPServer>.fromOpaque(server)._withUnsafeGuaranteedRef { server in
        server.handle(
            connection: connection, url: url, method: method, version: version, upload: upload, uploadSize: uploadSize,
            slot: slot)
    }
}

let acceptPolicy: MHD_AcceptPolicyCallback = { server, _, _ in
    guard let server else {
        return .NO
    }
    return Unmanaged<HTTPServer>.fromOpaque(server)._withUnsafeGuaranteedRef { $0.isAccepting } ? .YES : .NO
}

let requestCompleted: MHD_RequestCompletedCallback = { server, _, slot, reason in
    guard let server, let slot, let context = slot.pointee else {
        return
    }
    slot.pointee = nil
    guard TargetRefusal(marker: context) == nil else {
        return
    }
    let request = Unmanaged<RequestContext>.fromOpaque(context).takeRetainedValue()
    Unmanaged<HTTPServer>.fromOpaque(server)._withUnsafeGuaranteedRef { $0.finish(request, reason: reason) }
}

/// Keeps a ``RequestContext`` for each connection while it is open, which
/// its requests use one after the other (see ``HTTPServer/handle``). Each
/// request retains it as well, so it outlives the connection when
/// libmicrohttpd reports the connection closed before the request completed.
let connectionNotified: MHD_NotifyConnectionCallback = { _, _, socketContext, code in
    guard let socketContext else {
        return
    }
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        socketContext.pointee = Unmanaged.passRetained(RequestContext()).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        if let context = socketContext.pointee {
            socketContext.pointee = nil
            Unmanaged<RequestContext>.fromOpaque(context).release()
        }
    default:
        break
    }
}

/// Called with the request target before libmicrohttpd splits its query:
/// libmicrohttpd 0.9.75 keeps every argument in the connection's 32 KiB
/// memory pool and, when a few hundred fill it, stops answering. A target
/// longer than `maxTargetLength`, or with more than `maxQueryArguments`
/// arguments, has its query emptied here (in libmicrohttpd's own buffer) and
/// is answered 414 by the first access-handler call, which finds the marker
/// returned here in its `req_cls`.
let uriLogger:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        server, uri, _ in
        guard let server, let uri else {
            return nil
        }
        let configuration = Unmanaged<HTTPServer>.fromOpaque(server)._withUnsafeGuaranteedRef { $0.configuration }
        let length = strlen(uri)
        let refusal: TargetRefusal?
        if length > configuration.maxTargetLength {
            refusal = .tooLong
        } else if let query = strchr(uri, 0x3F) {
            var arguments = 1
            var cursor = query + 1
            while cursor.pointee != 0 {
                if cursor.pointee == 0x26 {
                    arguments += 1
                }
                cursor += 1
            }
            refusal = arguments > configuration.maxQueryArguments ? .tooManyArguments : nil
        } else {
            refusal = nil
        }
        guard let refusal else {
            return nil
        }
        if let query = strchr(uri, 0x3F) {
            UnsafeMutablePointer(mutating: query + 1).pointee = 0
        }
        return refusal.marker
    }

let daemonLog: MHD_LogCallback = { server, format, arguments in
    guard let server, let format else {
        return
    }
    var buffer = [CChar](repeating: 0, count: 512)
    guard let arguments else {
        return
    }
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true {
        message.removeLast()
    }
    Unmanaged<HTTPServer>.fromOpaque(server).takeUnretainedValue().logger.debug(
        "libmicrohttpd: \(LogText.escaped(message))")
}

/// Percent-decodes URL paths and query arguments in place, like
/// libmicrohttpd's own unescaper, except that `%00` stays as it is: a NUL
/// would silently cut the C string short (`/a.css%00.txt` would read as `/a.css`).
let unescapeURL: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = {
    _, _, text in
    guard let text else {
        return 0
    }
    // Most paths hold no escape: leave them as they are.
    guard strchr(text, 0x25) != nil else {
        return strlen(text)
    }
    func hexValue(_ character: CChar) -> UInt8? {
        switch UInt8(bitPattern: character) {
        case let digit where (0x30...0x39).contains(digit): digit - 0x30
        case let upper where (0x41...0x46).contains(upper): upper - 0x41 + 10
        case let lower where (0x61...0x66).contains(lower): lower - 0x61 + 10
        default: nil
        }
    }
    var read = 0
    var write = 0
    while text[read] != 0 {
        if text[read] == 0x25, let high = hexValue(text[read + 1]), let low = hexValue(text[read + 2]),
            high | low != 0
        {
            text[write] = CChar(bitPattern: high << 4 | low)
            read += 3
        } else {
            text[write] = text[read]
            read += 1
        }
        write += 1
    }
    text[write] = 0
    return write
}
