/// Compressing answers for the coding a request accepts (docs/API.md,
/// Compression): text bodies of 200 answers, each coding with its own entity
/// tag (`"7"` is sent as `"7-gzip"` or `"7-br"`), and `Vary: Accept-Encoding`
/// on every answer whose coding depended on it.
///
/// Handlers never see the coded tags: before routing, `If-None-Match` keeps
/// the tags of the coding being answered in, taken back to the handler's own
/// (`"7-gzip"` → `"7"`, when answering in gzip); a 304 then names the tag
/// the client sent.
public enum ContentEncoding {
    /// Media types worth compressing: text, JSON, JavaScript, SVG. Not event
    /// streams (docs/perf-history/fixed-in-the-product.md, *Event streams are not compressed*).
    /// Asked of every answer made, so read on the bytes, ignoring ASCII case.
    public static func isCompressible(_ contentType: String) -> Bool {
        let utf8 = contentType.utf8
        let type = utf8[..<(utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex)]
        if same(type, "text/event-stream") {
            return false
        }
        return same(type.prefix(5), "text/") || same(type, "application/json") || same(type.suffix(5), "+json")
            || same(type, "application/javascript") || same(type, "image/svg+xml")
    }

    /// Whether `bytes` are `token` (lowercase), ignoring ASCII case.
    private static func same(_ bytes: Substring.UTF8View, _ token: StaticString) -> Bool {
        bytes.count == token.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)) {
                ((0x41...0x5A).contains($0) ? $0 | 0x20 : $0) == $1
            }
    }

    /// `tag` as sent in `coding`: the coding's name before the closing quote.
    public static func tag(_ tag: String, in coding: ContentCoding) -> String {
        guard coding != .identity, tag.hasSuffix("\"") else {
            return tag
        }
        return tag.dropLast() + "-" + coding.token + "\""
    }

    /// `If-None-Match` as the handler should see it when answering in
    /// `coding`: the tags of that coding, taken back to the handler's own,
    /// and `*`; nil when none is left. `namesCoded` is whether a tag of a
    /// compressed coding was among them (a 304 then names that tag).
    static func condition(_ ifNoneMatch: String, for coding: ContentCoding) -> (value: String?, namesCoded: Bool) {
        var kept: [Substring] = []
        var namesCoded = false
        for (tag, tagCoding) in codedTags(ifNoneMatch) where tagCoding == coding || tagCoding == .identity {
            kept.append(tag)
            namesCoded = namesCoded || tagCoding != .identity
        }
        return (kept.isEmpty ? nil : kept.joined(separator: ", "), namesCoded)
    }

    /// `If-Match` as the handler should see it: every tag taken back to the
    /// handler's own. An edit changes the resource, whatever coding the
    /// client last read it in.
    static func uncoded(_ ifMatch: String) -> String {
        codedTags(ifMatch).map(\.tag).joined(separator: ", ")
    }

    /// The tags of a list, each without its coding's name, with that coding
    /// (`identity` for a tag without one).
    private static func codedTags(_ list: String) -> [(tag: Substring, coding: ContentCoding)] {
        EntityTagList(list).tags.map { text in
            guard
                let coding = ContentCoding.allCases.first(where: { $0 != .identity && text.hasSuffix("-\($0.token)\"") }
                )
            else {
                return (text, .identity)
            }
            return (text.dropLast(coding.token.utf8.count + 2) + "\"", coding)
        }
    }

    /// `response` as sent in `coding`.
    ///
    /// - A 200 with a compressible type and no `Content-Encoding` of its own:
    ///   bytes compressed (kept as they were when that makes them no
    ///   smaller), pieces compressed as they are sent; `Vary` in any coding.
    /// - A 304: `Vary`, and the coded tag when the client named one.
    static func encode(_ response: HTTPResponse, in coding: ContentCoding, namesCoded: Bool) -> HTTPResponse {
        var response = response
        if response.status == 304 {
            if let etag = response.headers["ETag"] {
                addVary(to: &response.headers)
                if namesCoded {
                    response.headers.set("ETag", tag(etag, in: coding))
                }
            }
            return response
        }
        guard response.status == 200, let type = response.headers["Content-Type"], isCompressible(type) else {
            return response
        }
        addVary(to: &response.headers)
        guard coding != .identity, !response.headers.contains("Content-Encoding") else {
            return response
        }
        switch response.body {
        case .bytes(let bytes):
            guard let compressed = Compressor.compress(bytes, coding, effort: .perRequest),
                compressed.count < bytes.count
            else {
                return response
            }
            response.body = .bytes(compressed)
        case .chunks(let producer):
            response.body = .chunks(producer.compressed(coding))
        case .file, .stream:
            return response
        }
        response.headers.set("Content-Encoding", coding.token)
        if let etag = response.headers["ETag"] {
            response.headers.set("ETag", tag(etag, in: coding))
        }
        return response
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) })
        else {
            return text[text.startIndex..<text.startIndex]
        }
        return text[start...end]
    }

    /// Adds `Accept-Encoding` to `Vary`, once.
    static func addVary(to headers: inout HTTPHeaders) {
        let present =
            headers.contains("Vary")
            && headers.values(for: "Vary").contains { value in
                value.split(separator: ",").contains { trimmed($0).lowercased() == "accept-encoding" }
            }
        if !present {
            headers.add("Vary", "Accept-Encoding")
        }
    }
}

extension ChunkProducer {
    /// These pieces compressed in `coding` as they are made. The first piece
    /// (the head of a page) is flushed at once so the client can start on
    /// it; later ones leave the encoder to send what it has when its blocks
    /// fill, which keeps the ratio close to compressing the body whole.
    func compressed(_ coding: ContentCoding) -> ChunkProducer {
        let makeNext = self.makeNext
        return ChunkProducer(makingNext: {
            let next = makeNext()
            // Without the encoder's memory the body ends here, rather than be
            // sent uncompressed under a Content-Encoding that says otherwise.
            guard let compressor = Compressor(coding, effort: .perRequest) else {
                return { nil }
            }
            var first = true
            var finished = false
            return {
                guard !finished else {
                    return nil
                }
                guard let piece = next() else {
                    finished = true
                    return compressor.compress([], .finish)
                }
                defer { first = false }
                return compressor.compress(piece, first ? .flush : .more)
            }
        })
    }
}
