/// The `Bearer` scheme of an `Authorization` field (RFC 6750 §2.1): the
/// scheme's name matched without regard to case, and its token found without
/// a copy, as every request with a credential asks.
enum BearerScheme {
    private static let name = Array("bearer ".utf8)

    /// The token of `authorization` when it is `Bearer <token>`; nil otherwise.
    static func token(of authorization: String) -> Substring? {
        let bytes = authorization.utf8
        guard bytes.count > name.count else { return nil }
        var index = bytes.startIndex
        for expected in name {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            guard byte == expected else { return nil }
            index = bytes.index(after: index)
        }
        return authorization[index...]
    }
}
