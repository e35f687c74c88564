import JSON

/// The `alg` and `kid` of a compact JWS's header, read before any signature
/// check so that ``TokenVerifier`` takes only the algorithm each key is for.
struct TokenHeader: Equatable {
    let algorithm: String
    let keyID: String?

    /// Nil unless `token` is three base64url parts whose first is a JSON
    /// object with a string `alg` (and, if any, a string `kid`).
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty, let bytes = Base64URL.decoded(parts[0]),
            case .object(let header)? = try? JSONParser().parse(bytes),
            case .string(let algorithm)? = header["alg"]
        else { return nil }
        switch header["kid"] {
        case nil: keyID = nil
        case .string(let kid)?: keyID = kid
        default: return nil
        }
        self.algorithm = algorithm
    }
}
