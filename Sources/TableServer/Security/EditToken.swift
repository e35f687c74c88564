import MicroHTTP

/// The bearer token every mutating request must carry when one is configured.
struct EditToken: Sendable {
    private let secret: [UInt8]

    /// nil for an empty token: an empty secret would authorise nothing useful.
    init?(_ text: String) {
        let trimmed = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !trimmed.isEmpty else { return nil }
        secret = Array(trimmed.utf8)
    }

    /// True when `authorization` is `Bearer <token>`. Compares in time independent
    /// of where the first difference lies.
    func authorizes(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let prefix = "bearer "
        guard authorization.count > prefix.count,
            authorization.prefix(prefix.count).lowercased() == prefix
        else { return false }
        let offered = Array(authorization.utf8.dropFirst(prefix.utf8.count))
        var difference = offered.count ^ secret.count
        for index in 0..<secret.count {
            let byte = index < offered.count ? offered[index] : 0
            difference |= Int(byte ^ secret[index])
        }
        return difference == 0
    }

    /// 401 with `WWW-Authenticate: Bearer`.
    static func challenge() -> HTTPResponse {
        var response = HTTPResponse.problem(
            status: 401, type: "unauthorized",
            detail: "edits need an Authorization: Bearer <token> header with the server's edit token")
        response.headers.set("WWW-Authenticate", "Bearer realm=\"webtableview\"")
        return response
    }
}
