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
        guard let authorization, let token = BearerScheme.token(of: authorization) else { return false }
        let offered = token.utf8
        var difference = offered.count ^ secret.count
        var index = offered.startIndex
        for byte in secret {
            let ended = index == offered.endIndex
            difference |= Int(byte ^ (ended ? 0 : offered[index]))
            if !ended { index = offered.index(after: index) }
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
