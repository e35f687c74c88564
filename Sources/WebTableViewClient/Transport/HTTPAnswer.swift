import Foundation

/// One HTTP answer as the client reads it: the status, the headers it uses, the body.
public struct HTTPAnswer: Sendable {
    public var status: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, whatever its case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` in seconds (RFC 9110 allows a date too; the server sends seconds).
    var retryAfter: Duration? {
        guard let value = header("Retry-After"), let seconds = Int(value.trimmingCharacters(in: .whitespaces)),
            seconds >= 0
        else { return nil }
        return .seconds(seconds)
    }
}
