import JSON
import Logging
import MicroHTTP
import TableModel
import TableRendering

/// Building answers: JSON and HTML bodies with their `ETag` and
/// `Cache-Control`, and problem documents.
///
/// Live answers say `no-cache`: a cache may store them but must revalidate
/// with the `ETag` before each use, so nothing in front of the server (a
/// browser, nginx, a CDN) serves a table older than its last edit. Errors say
/// `no-store` (docs/API.md, Caching).
enum Respond {
    static let jsonType = "application/json; charset=utf-8"
    static let htmlType = "text/html; charset=utf-8"
    /// `Cache-Control` of every live answer and of its 304.
    static let revalidate = "no-cache"
    /// `Cache-Control` of every error.
    static let neverStore = "no-store"

    /// A JSON answer; `bytes` end with a line feed, as every JSON answer does.
    static func json(_ bytes: [UInt8], status: Int = 200, version: Int? = nil) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers(jsonType, version: version, status: status), body: .bytes(bytes))
    }

    static func json(
        status: Int = 200, version: Int? = nil, reservingCapacity capacity: Int = 256,
        _ write: (inout JSONWriter) -> Void
    ) -> HTTPResponse {
        var writer = JSONWriter(reservingCapacity: capacity)
        write(&writer)
        writer.lineFeed()
        return json(writer.bytes, status: status, version: version)
    }

    /// Rows a large table's JSON is sent in pieces of (chunked transfer coding),
    /// so that it is never whole in memory; smaller tables are sent in one.
    static let rowsPerPiece = 1000

    /// A table's JSON sent in pieces as they are written, then its line feed.
    static func json(pieces: TableJSONPieces, version: Int) -> HTTPResponse {
        chunked(LineFeedAfter(pieces: pieces), type: jsonType, version: version)
    }

    static func html(_ text: String, status: Int = 200, version: Int? = nil) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: headers(htmlType, version: version, status: status), body: .bytes(Array(text.utf8))
        )
    }

    /// An HTML body sent in pieces as they are drawn.
    static func html(pieces: PagePieces, version: Int) -> HTTPResponse {
        chunked(pieces, type: htmlType, version: version)
    }

    /// A 200 whose body is sent a piece at a time as each is made (chunked
    /// transfer coding).
    private static func chunked<Pieces: Sequence & Sendable>(
        _ pieces: Pieces, type: String, version: Int
    ) -> HTTPResponse where Pieces.Element == [UInt8] {
        HTTPResponse(
            status: 200, headers: headers(type, version: version), body: .chunks(ChunkProducer(pieces: pieces)))
    }

    /// `Content-Type`, the `ETag` of `version` when there is one, and
    /// `Cache-Control`: `no-cache`, or `no-store` for an error.
    private static func headers(_ type: String, version: Int?, status: Int = 200) -> HTTPHeaders {
        // Room for these three and the `Vary` that compression adds.
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        headers.add("Content-Type", type)
        if let version { headers.add("ETag", ETag.string(for: version)) }
        headers.add("Cache-Control", status >= 400 ? neverStore : revalidate)
        return headers
    }

    /// 304 for a GET whose `If-None-Match` names the current version.
    static func notModified(version: Int) -> HTTPResponse {
        notModified(etag: ETag.string(for: version), cacheControl: revalidate)
    }

    /// `response`, a 200 made from more than one table (the index, the list
    /// of tables), with an `ETag` hashed from its body; 304 when the
    /// request's `If-None-Match` names it.
    static func taggedByContent(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard response.status == 200, case .bytes(let bytes) = response.body else {
            return response
        }
        let tag = "\"\(ContentHash.hex(of: bytes))\""
        if ETag.matches(request.headers["If-None-Match"], tag: tag) {
            return notModified(etag: tag, cacheControl: revalidate)
        }
        var response = response
        response.headers.set("ETag", tag)
        return response
    }

    /// 304 carrying the `ETag` and `Cache-Control` the 200 would have.
    static func notModified(etag: String, cacheControl: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("ETag", etag)
        headers.set("Cache-Control", cacheControl)
        return HTTPResponse(status: 304, headers: headers)
    }

    /// The answer `body` makes, or the problem document for what it threw; an
    /// error the store did not expect is an ``internalError(_:logger:)``.
    static func catching(logger: Logger, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as TableServerError {
            return problem(error)
        } catch {
            return internalError(error, logger: logger)
        }
    }

    /// `catching` for an edit: a repeat of an `Idempotency-Key` is answered
    /// with the first answer (`IdempotentRepeat`).
    static func edit(logger: Logger, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        catching(logger: logger) {
            do {
                return try body()
            } catch let repeated as IdempotentRepeat {
                return repeated.answer.response
            }
        }
    }

    /// 500 with a generic detail and a fresh request id (also in `X-Request-Id`):
    /// the error's own text, which may name files or internals, goes only to
    /// the log, under that id.
    static func internalError(_ error: any Error, logger: Logger, html: Bool = false) -> HTTPResponse {
        let requestID = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        logger.error(
            "internal error: \(LogText.escaped(String(describing: error)))", metadata: ["request-id": "\(requestID)"])
        let detail = "An internal error occurred; the server's log has it under request id \(requestID)."
        var response =
            html
            ? Respond.html(detail, status: 500)
            : .problem(status: 500, type: "internal", detail: detail)
        response.headers.set("X-Request-Id", requestID)
        return response
    }

    static func problem(_ error: TableServerError) -> HTTPResponse {
        switch error {
        case .invalid(let validation):
            return validationProblem(validation)
        case .versionMismatch(_, let current, _):
            var response = HTTPResponse.problem(status: error.status, type: error.type, detail: error.detail)
            response.headers.set("ETag", ETag.string(for: current))
            return response
        case .storageUnavailable, .storageInconsistent, .notCaughtUp, .outcomeUnknown, .overloaded, .tooManyViews,
            .heavyWorkBusy:
            var response = HTTPResponse.problem(status: error.status, type: error.type, detail: error.detail)
            response.headers.set("Retry-After", "\(TableServerError.retryAfterSeconds)")
            return response
        case .unsupportedMediaType(_, let accepted):
            var response = HTTPResponse.problem(status: error.status, type: error.type, detail: error.detail)
            response.headers.set("Accept", accepted.mediaTypes.joined(separator: ", "))
            if accepted == .mergePatch { response.headers.set("Accept-Patch", accepted.mediaTypes[0]) }
            return response
        default:
            return .problem(status: error.status, type: error.type, detail: error.detail)
        }
    }

    /// 422 with every issue, each with its JSON path, also listed under `errors`.
    static func validationProblem(_ error: ValidationError) -> HTTPResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type"); writer.string("validation")
        writer.key("title"); writer.string("Unprocessable Content")
        writer.key("status"); writer.integer(422)
        writer.key("detail"); writer.string(error.issues.map { "\($0.path): \($0.message)" }.joined(separator: "; "))
        writer.key("errors")
        writer.beginArray()
        for issue in error.issues {
            writer.beginObject()
            writer.key("path"); writer.string(issue.path)
            writer.key("message"); writer.string(issue.message)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.lineFeed()
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/problem+json")
        headers.set("Cache-Control", neverStore)
        return HTTPResponse(status: 422, headers: headers, body: .bytes(writer.bytes))
    }
}

/// A document's pieces followed by one line feed, the way every JSON answer ends.
struct LineFeedAfter<Pieces: Sequence & Sendable>: Sequence, Sendable where Pieces.Element == [UInt8] {
    let pieces: Pieces

    func makeIterator() -> Iterator { Iterator(pieces: pieces.makeIterator()) }

    struct Iterator: IteratorProtocol {
        var pieces: Pieces.Iterator
        var ended = false

        mutating func next() -> [UInt8]? {
            if let piece = pieces.next() { return piece }
            if ended { return nil }
            ended = true
            return [UInt8(ascii: "\n")]
        }
    }
}
