/// RFC 9112's framing rules (§3.2, §6.1, §6.3) over fields as plain strings,
/// written apart from `RequestFraming` to judge it.
enum ReferenceFraming {
    enum Verdict: Equatable {
        case accept, acceptThenClose
        case refuse(status: Int)
    }

    /// The fields of `text`: each line with a colon, its name before the
    /// first colon, its value after it without surrounding spaces and tabs
    /// (as libmicrohttpd stores them); no NUL bytes, which C strings cannot hold.
    static func fields(_ text: String) -> [(name: String, value: String)] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line.startIndex != colon, !line.contains("\0") else {
                return nil
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            return (String(line[..<colon]), value)
        }
    }

    static func verdict(_ fields: [(name: String, value: String)], version: String) -> Verdict {
        func values(_ name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name }.map(\.value)
        }
        let hosts = values("host")
        if hosts.count > 1 || hosts.contains(where: { !isHost($0) }) {
            return .refuse(status: 400)
        }
        let lengths = values("content-length")
        if let length = lengths.first {
            if Set(lengths).count > 1 || length.isEmpty || !length.unicodeScalars.allSatisfy({ "0"..."9" ~= $0 }) {
                return .refuse(status: 400)
            }
        }
        let transfer = values("transfer-encoding")
        guard !transfer.isEmpty else {
            return .accept
        }
        if !lengths.isEmpty {
            return .refuse(status: 400)
        }
        let codings = transfer.joined(separator: ",").lowercased().split(separator: ",")
            .map { String($0).trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
        if codings.last != "chunked" || codings.filter({ $0 == "chunked" }).count != 1 {
            return .refuse(status: 400)
        }
        if codings.count > 1 {
            return .refuse(status: 501)
        }
        return version == "HTTP/1.0" ? .acceptThenClose : .accept
    }

    /// `host [":" port]` by RFC 3986's grammar, matched scalar by scalar.
    static func isHost(_ value: String) -> Bool {
        var host = Substring(value)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close]
            guard !literal.isEmpty,
                literal.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." })
            else { return false }
            let after = host[host.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return false }
            port = after.isEmpty ? nil : after.dropFirst()
            host = ""
        } else if let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        let nameScalars = Set(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=%".unicodeScalars)
        return host.unicodeScalars.allSatisfy(nameScalars.contains)
            && (port ?? "").unicodeScalars.allSatisfy { "0"..."9" ~= $0 }
    }
}

extension StringProtocol {
    /// Without `characters` at either end.
    func trimmingCharacters(in characters: String) -> String {
        let trimmed = drop { characters.contains($0) }
        return String(trimmed.reversed().drop { characters.contains($0) }.reversed())
    }
}
