import MicroHTTP

extension RawConnection {
    /// Where the chunked-body decoder is.
    enum ChunkState {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
        case done
    }

    /// Reads one whole response (skipping interim 1xx ones).
    public func readResponse(for method: HTTPMethod = .GET, timeout: Duration = .seconds(10)) throws -> TestResponse {
        let deadline = ContinuousClock.now + TestTimeouts.scaled(timeout)
        var response = try readHead(before: deadline)
        if method == .HEAD || response.status == 204 || response.status == 304 {
            return response
        }
        if response.headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            response.body = readChunkedBody(before: deadline) { _ in false }
            guard case .done = chunkState else {
                throw isPeerClosed ? TestClientError.closedEarly : TestClientError.timedOut
            }
        } else if let length = response.headers["Content-Length"].flatMap({ Int($0) }) {
            while buffer.count < length, fill(before: deadline) {}
            guard buffer.count >= length else {
                throw isPeerClosed ? TestClientError.closedEarly : TestClientError.timedOut
            }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while fill(before: deadline) {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Reads the status line and header fields of the next final response;
    /// the body stays to be read (see ``readStream(timeout:until:)``).
    public func readHead(timeout: Duration = .seconds(10)) throws -> TestResponse {
        try readHead(before: .now + TestTimeouts.scaled(timeout))
    }

    /// Reads and decodes a chunked body as it arrives, until `isComplete`
    /// holds for the bytes decoded so far, the body ends, the peer closes,
    /// or `timeout` passes. Call after ``readHead(timeout:)``.
    public func readStream(timeout: Duration = .seconds(10), until isComplete: ([UInt8]) -> Bool) -> [UInt8] {
        readChunkedBody(before: .now + TestTimeouts.scaled(timeout), until: isComplete)
    }

    /// Whether the chunked body ended with its last (empty) chunk.
    public var sawLastChunk: Bool {
        if case .done = chunkState { true } else { false }
    }

    private func readHead(before deadline: ContinuousClock.Instant) throws -> TestResponse {
        while true {
            var lines: [[UInt8]] = []
            while true {
                if let line = takeLine() {
                    if line.isEmpty {
                        break
                    }
                    lines.append(line)
                } else if !fill(before: deadline) {
                    throw isPeerClosed ? TestClientError.closedEarly : TestClientError.timedOut
                }
            }
            let statusLine = String(decoding: lines.first ?? [], as: UTF8.self)
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw TestClientError.malformedResponse(statusLine)
            }
            if (100..<200).contains(status) {
                continue
            }
            var headers = HTTPHeaders()
            for line in lines.dropFirst() {
                let text = String(decoding: line, as: UTF8.self)
                guard let colon = text.firstIndex(of: ":") else {
                    throw TestClientError.malformedResponse(text)
                }
                headers.add(String(text[..<colon]), String(text[text.index(after: colon)...].drop { $0 == " " }))
            }
            chunkState = .size
            return TestResponse(status: status, headers: headers, body: [])
        }
    }

    private func readChunkedBody(before deadline: ContinuousClock.Instant, until isComplete: ([UInt8]) -> Bool)
        -> [UInt8]
    {
        var decoded: [UInt8] = []
        while true {
            decodeBuffered(into: &decoded)
            if case .done = chunkState {
                return decoded
            }
            if isComplete(decoded) || !fill(before: deadline) {
                return decoded
            }
        }
    }

    /// Decodes as much of the buffered chunked body as is complete.
    private func decodeBuffered(into decoded: inout [UInt8]) {
        while true {
            switch chunkState {
            case .size:
                guard let line = takeLine() else {
                    return
                }
                let digits = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                let size = Int(digits.trimmingSpaces, radix: 16) ?? 0
                chunkState = size == 0 ? .trailer : .data(remaining: size)
            case .data(let remaining):
                let count = min(remaining, buffer.count)
                guard count > 0 else {
                    return
                }
                decoded += buffer[..<count]
                buffer.removeFirst(count)
                chunkState = remaining == count ? .dataEnd : .data(remaining: remaining - count)
            case .dataEnd:
                guard takeLine() != nil else {
                    return
                }
                chunkState = .size
            case .trailer:
                guard let line = takeLine() else {
                    return
                }
                if line.isEmpty {
                    chunkState = .done
                }
            case .done:
                return
            }
        }
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
