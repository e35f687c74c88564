/// A policy, key or JWKS file the server cannot start with, and why.
public struct AccessFileError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
