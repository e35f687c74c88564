import Glibc
import MicroHTTP

/// One TCP connection to a live test server, written and read by hand:
/// for partial or slow requests and for reading event streams as they come.
///
/// Reads wait at most a given time; a connection is used by one thread.
public final class RawConnection {
    private let descriptor: Int32
    private var isOpen = true
    /// Bytes received and not yet consumed by a reader.
    var buffer: [UInt8] = []
    /// The peer has closed (or reset) the connection.
    public private(set) var isPeerClosed = false
    var chunkState = ChunkState.size

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`; with
    /// `receiveBuffer`, the socket's receive buffer is set that small first, so
    /// that a server writing to a client that does not read soon finds its
    /// socket full.
    public init(host: String = "127.0.0.1", port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = try Self.open(host: host, port: port, receiveBuffer: receiveBuffer)
    }

    deinit {
        close()
    }

    /// A connected socket; nothing is left open when it fails.
    private static func open(host: String, port: Int, receiveBuffer: Int32?) throws -> Int32 {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isIPv6 = inet_pton(AF_INET6, host, &v6.sin6_addr) == 1
        let descriptor = socket(
            isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw TestClientError.cannotConnect(errno: errno)
        }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let connected: Int32
        if isIPv6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
            connected = connect(descriptor, to: &v6)
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &v4.sin_addr)
            connected = connect(descriptor, to: &v4)
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw TestClientError.cannotConnect(errno: code)
        }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    private static func connect<Address>(_ descriptor: Int32, to address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }

    /// Closes the connection now; abortively, with a reset, when `reset`.
    public func close(reset: Bool = false) {
        guard isOpen else {
            return
        }
        if reset {
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        Glibc.close(descriptor)
        isOpen = false
        isPeerClosed = true
    }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else {
                if errno == EINTR {
                    continue
                }
                throw TestClientError.cannotSend(errno: errno)
            }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Writes a request; adds `Host`, `Connection: close` and `Content-Length`
    /// when `headers` lacks them.
    public func sendRequest(
        method: HTTPMethod = .GET,
        path: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) throws {
        var head = "\(method.rawValue) \(path) HTTP/1.1\r\n"
        if !headers.contains("Host") {
            head += "Host: 127.0.0.1\r\n"
        }
        if !headers.contains("Connection") {
            head += "Connection: close\r\n"
        }
        if !headers.contains("Content-Length"), !headers.contains("Transfer-Encoding"),
            !body.isEmpty || [.POST, .PUT, .PATCH].contains(method)
        {
            head += "Content-Length: \(body.count)\r\n"
        }
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        try send(Array((head + "\r\n").utf8) + body)
    }

    /// Waits until more bytes arrive or `deadline` passes.
    /// - Returns: whether bytes arrived (false on timeout or close).
    @discardableResult
    func fill(before deadline: ContinuousClock.Instant) -> Bool {
        while !isPeerClosed {
            let (seconds, attoseconds) = (deadline - .now).components
            let milliseconds = max(0, Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR {
                continue
            }
            guard ready > 0 else {
                return false
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0, errno == EINTR {
                continue
            }
            isPeerClosed = true
        }
        return false
    }

    /// Reads and discards until the peer closes or `timeout` passes.
    /// - Returns: whether the peer closed the connection.
    public func waitForClose(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + TestTimeouts.scaled(timeout)
        while !isPeerClosed, ContinuousClock.now < deadline {
            fill(before: deadline)
        }
        return isPeerClosed
    }

    /// Removes and returns one CRLF-ended line (without the CRLF), if buffered.
    func takeLine() -> [UInt8]? {
        guard let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) else {
            return nil
        }
        let line = Array(buffer[..<end])
        buffer.removeFirst(end + 2)
        return line
    }
}
