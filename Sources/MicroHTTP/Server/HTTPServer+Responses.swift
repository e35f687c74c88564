import CMicroHTTPD
import Glibc

extension HTTPServer {
    /// Turns `response` into a libmicrohttpd response and queues it.
    func queue(_ response: HTTPResponse, for context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        var response = response
        if context.method == .HEAD {
            Self.dropStreamedBody(of: &response)
        }
        guard let native = makeNative(&response, connection: connection) else {
            return .NO
        }
        Self.addHeaders(of: response, to: native)
        addPolicyHeaders(to: native)
        if context.closesConnection {
            _ = MHD_add_response_header(native, "Connection", "close")
        }
        context.status = response.status
        if case .stream = response.body { context.isEventStream = true }
        context.queuedAt = RequestContext.now()
        let result = MHD_queue_response(connection, UInt32(response.status), native)
        MHD_destroy_response(native)
        return result
    }

    /// Queues an answer kept ready (see ``PreparedResponses``).
    func queue(_ entry: PreparedResponses.Entry, for context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        context.status = entry.status
        context.route = entry.route
        context.queuedAt = RequestContext.now()
        return MHD_queue_response(connection, UInt32(entry.status), entry.native)
    }

    /// `response`, which a handler declared reusable, made into an answer to
    /// keep ready; nil when it is not kept (not a 200, not bytes, too large).
    func prepare(_ response: HTTPResponse, route: RouteLabel?) -> PreparedResponses.Entry? {
        guard let reuse = response.reuse, response.status == 200, case .bytes(let bytes) = response.body,
            bytes.count <= preparedResponses.largestBody
        else {
            return nil
        }
        guard let native = Self.copying(bytes) else {
            return nil
        }
        Self.addHeaders(of: response, to: native)
        addPolicyHeaders(to: native)
        return PreparedResponses.Entry(
            native: native,
            status: response.status,
            route: route,
            reuse: reuse,
            size: bytes.count + PreparedResponses.entryOverhead
        )
    }

    /// A shared answer (``SharedAnswers``) made into a libmicrohttpd
    /// response to send, or to keep on this thread's shelf.
    func prepare(_ answer: SharedAnswers.Answer) -> PreparedResponses.Entry? {
        guard let native = withExtendedLifetime(answer, { Self.copying(answer.body) }) else {
            return nil
        }
        answer.fields.add(to: native)
        addPolicyHeaders(to: native)
        return PreparedResponses.Entry(
            native: native, status: 200, route: answer.route, reuse: answer.reuse,
            size: answer.body.count + PreparedResponses.entryOverhead)
    }

    /// A libmicrohttpd response holding its own copy of `bytes`.
    private static func copying(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBytes(copying)
    }

    private static func copying(_ buffer: UnsafeRawBufferPointer) -> OpaquePointer? {
        MHD_create_response_from_buffer(
            buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
    }

    /// Bodies from this size up are sent from the array's own buffer (``lending(_:)``);
    /// smaller ones are copied, which costs less than the box that holds a buffer.
    static let smallestLentBody = 16 * 1024

    /// A libmicrohttpd response that sends `bytes` from the array's own buffer
    /// instead of a copy (a 1,000-row table's JSON is 350 KB): a ``HeldBytes``
    /// keeps the buffer alive, unchanged, until libmicrohttpd frees the response.
    private static func lending(_ bytes: [UInt8]) -> OpaquePointer? {
        guard bytes.count >= smallestLentBody else {
            return copying(bytes)
        }
        let held = HeldBytes(bytes)
        let box = Unmanaged.passRetained(held)
        let native = held.bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer_with_free_callback_cls(
                buffer.count,
                UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                releaseHeldBytes,
                box.toOpaque()
            )
        }
        if native == nil {
            box.release()
        }
        return native
    }

    /// A HEAD answer sends no body bytes, but libmicrohttpd 0.9.75 sends the
    /// last chunk (`0\r\n\r\n`) of a body of unknown length, which a
    /// kept-alive client reads as the start of its next answer. A body made
    /// in pieces is therefore made whole (libmicrohttpd then sends its
    /// `Content-Length` and no bytes); an event stream, which has no length,
    /// is ended and answered as empty.
    private static func dropStreamedBody(of response: inout HTTPResponse) {
        switch response.body {
        case .stream(let stream):
            stream.close()
            response.body = .bytes([])
        case .chunks(let producer):
            response.body = .bytes(producer.collect())
        case .bytes, .file:
            break
        }
    }

    /// The fields every answer carries (``OriginPolicy/responseHeaders``).
    private func addPolicyHeaders(to native: OpaquePointer) {
        policyFields.add(to: native)
    }

    private static func addHeaders(of response: HTTPResponse, to native: OpaquePointer) {
        // withCString lends a native or small string's bytes in place; passing
        // the String itself would copy each one into a new array.
        for (name, value) in response.headers where !HTTPHeaders.sameName(name, "Content-Length") {
            _ = name.withCString { name in value.withCString { value in MHD_add_response_header(native, name, value) } }
        }
    }

    /// The body as a libmicrohttpd response. A file that cannot be opened
    /// becomes a 404 problem (`response` is changed to match).
    private func makeNative(_ response: inout HTTPResponse, connection: OpaquePointer) -> OpaquePointer? {
        switch response.body {
        case .bytes(let bytes):
            return Self.lending(bytes)
        case .file(let path, _):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                if descriptor >= 0 {
                    close(descriptor)
                }
                response = .problem(status: 404, type: "not-found", detail: "The file is gone.")
                return makeNative(&response, connection: connection)
            }
            let native = MHD_create_response_from_fd64(UInt64(status.st_size), descriptor)
            if native == nil {
                close(descriptor)
            }
            return native
        case .stream(let stream):
            register(stream, connection: connection)
            let binding = Unmanaged.passRetained(StreamBinding(server: self, stream: stream))
            let native = MHD_create_response_from_callback(
                WTV_SIZE_UNKNOWN,
                16 * 1024,
                readStream,
                binding.toOpaque(),
                releaseStream
            )
            if native == nil {
                binding.release()
                unregister(stream)
            }
            return native
        case .chunks(let producer):
            let reader = Unmanaged.passRetained(ChunkReader(producer))
            let native = MHD_create_response_from_callback(
                WTV_SIZE_UNKNOWN,
                64 * 1024,
                readChunks,
                reader.toOpaque(),
                releaseChunks
            )
            if native == nil {
                reader.release()
            }
            return native
        }
    }

    /// Keeps `stream` for heartbeats and shutdown, its socket watched for
    /// the client's leaving (``ClientWatch``); a stream answered while the
    /// server stops is closed at once.
    private func register(_ stream: EventStream, connection: OpaquePointer) {
        let socket = stream.attach(
            to: ConnectionHandle(pointer: connection), writeTimeout: configuration.connectionTimeout)
        let running = state.withLock { state in
            guard state.phase == .running else {
                return false
            }
            state.streams[ObjectIdentifier(stream)] = stream
            state.clientWatch?.watch(stream, socket: socket)
            metricsRecorder.setOpenEventStreams(state.streams.count)
            return true
        }
        if !running {
            stream.close()
        }
    }

    /// Drops the streams whose clients left (``ClientWatch``).
    func dropClientsThatLeft() {
        let leavers = state.withLock { $0.clientWatch?.takeLeavers() ?? [] }
        leavers.forEach { $0.clientLeft() }
    }

    /// The connection is done with `stream`: its writes are counted before it
    /// stops counting as open, so a scrape that sees it gone sees them too.
    func unregister(_ stream: EventStream) {
        state.withLock { $0.clientWatch?.forget(stream) }
        metricsRecorder.count(stream.detach())
        state.withLock { state in
            state.streams[ObjectIdentifier(stream)] = nil
            metricsRecorder.setOpenEventStreams(state.streams.count)
        }
    }
}

/// A body's bytes kept for libmicrohttpd, which sends them from the array's own
/// buffer: the array is never changed while it is held (a `let`), so its buffer
/// neither moves nor is freed until the response is (`releaseHeldBytes`).
final class HeldBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

let releaseHeldBytes: MHD_ContentReaderFreeCallback = { held in
    if let held {
        Unmanaged<HeldBytes>.fromOpaque(held).release()
    }
}
