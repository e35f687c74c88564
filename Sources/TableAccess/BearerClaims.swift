#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The claims of a bearer JWT: the registered ones the server checks, and
/// every claim kept for the policy's rules (`sub`, `role`, `roles`, custom).
/// Decoded from a token's payload by the verifier (AccessTokens, with
/// jwt-kit); a policy reads them and never sees the token.
public struct BearerClaims: Codable, Sendable, Equatable {
    /// Every claim by name.
    public let claims: [String: ClaimValue]
    /// When the token expires (`exp`, required).
    public let expiry: Date

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ClaimName.self)
        var claims: [String: ClaimValue] = [:]
        for key in container.allKeys {
            claims[key.stringValue] = try container.decode(ClaimValue.self, forKey: key)
        }
        guard case .number(let exp) = claims["exp"] else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "exp is missing or not a number"))
        }
        self.claims = claims
        expiry = Date(timeIntervalSince1970: exp)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in claims {
            try container.encode(value, forKey: ClaimName(name))
        }
    }

    /// Why the claims are refused at `now`, if they are: `exp` is past, or
    /// `nbf`, when given, still to come. `iss` and `aud` are checked by the
    /// verifier, which knows what they must be.
    public func timeRefusal(at now: Date) -> TokenRefusal? {
        guard now < expiry else { return TokenRefusal("the token has expired") }
        if case .number(let nbf) = claims["nbf"], now.timeIntervalSince1970 < nbf {
            return TokenRefusal("the token is not valid yet")
        }
        return nil
    }

    /// The subject (`sub`), when it is a string.
    public var subject: String? {
        if case .string(let sub) = claims["sub"] { sub } else { nil }
    }

    /// Whether claim `name` is `value` or an array holding it.
    public func claim(_ name: String, holds value: String) -> Bool {
        switch claims[name] {
        case .string(let text): text == value
        case .strings(let texts): texts.contains(value)
        default: false
        }
    }

    private struct ClaimName: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue _: Int) { nil }
    }
}

/// One claim's value, as far as a policy reads it.
public enum ClaimValue: Codable, Sendable, Equatable {
    case string(String)
    case strings([String])
    case number(Double)
    case bool(Bool)
    /// An object, null, or an array not only of strings: kept, never matched.
    case other

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let texts = try? container.decode([String].self) {
            self = .strings(texts)
        } else {
            self = .other
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .strings(let texts): try container.encode(texts)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .other: try container.encodeNil()
        }
    }
}
