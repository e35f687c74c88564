/// RFC 9112's framing and field-line rules (§3.2, §5, §5.2, §6.1, §6.3; RFC
/// 9110 §5.5) over a header block as plain bytes, written apart from
/// `RequestFields` and `RequestFraming` to judge them.
enum ReferenceFraming {
    enum Verdict: Equatable {
        case accept, acceptThenClose
        case refuse(status: Int)
    }

    /// One line of a header block, without its line end.
    struct Line: CustomStringConvertible {
        var bytes: [UInt8]
        /// Ended by CR LF (or by the end of the input), not by LF alone.
        var endsInCRLF: Bool
        /// An obs-fold line: after the first, starting with a space or tab.
        var isFold: Bool

        var description: String {
            "\(String(decoding: bytes, as: UTF8.self).debugDescription)\(endsInCRLF ? "" : "(LF)")"
        }
    }

    /// The lines of `block` up to its first empty line, the last ended by
    /// the end of the input; nil when a line other than a fold has no colon
    /// (libmicrohttpd closes the connection unanswered) or the last line
    /// holds a NUL (which its layout cannot always show; docs/RELIABILITY.md,
    /// "Framing").
    static func lines(_ block: [UInt8]) -> [Line]? {
        var lines: [Line] = []
        var rest = block[...]
        while !rest.isEmpty {
            var bytes: ArraySlice<UInt8>
            var endsInCRLF = true
            if let feed = rest.firstIndex(of: UInt8(ascii: "\n")) {
                bytes = rest[..<feed]
                rest = rest[(feed + 1)...]
                if bytes.last == UInt8(ascii: "\r") || bytes.last == 0 {
                    // A NUL before the LF lies where libmicrohttpd leaves a CR: read as one.
                    bytes = bytes.dropLast()
                } else {
                    endsInCRLF = false
                }
            } else {
                bytes = rest
                rest = []
            }
            guard !bytes.isEmpty else { break }
            let isFold = !lines.isEmpty && (bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t"))
            guard isFold || bytes.contains(UInt8(ascii: ":")) else { return nil }
            lines.append(Line(bytes: Array(bytes), endsInCRLF: endsInCRLF, isFold: isFold))
        }
        if lines.last?.bytes.contains(0) == true { return nil }
        return lines
    }

    static func verdict(_ lines: [Line], version: String) -> Verdict {
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard line.endsInCRLF, !line.isFold else { return .refuse(status: 400) }
            let colon = line.bytes.firstIndex(of: UInt8(ascii: ":"))!
            let name = line.bytes[..<colon]
            let value = line.bytes[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard !name.isEmpty, name.allSatisfy(isTokenByte), !value.contains(UInt8(ascii: "\r")), !value.contains(0)
            else { return .refuse(status: 400) }
            fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return verdict(fields, version: version)
    }

    /// The verdict on well-formed field lines.
    static func verdict(_ fields: [(name: String, value: String)], version: String) -> Verdict {
        func values(_ name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name }.map(\.value)
        }
        if values("idempotency-key").count > 1 {
            return .refuse(status: 400)
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
        // Each field a list without whitespace at either end or empty members.
        for value in transfer {
            let members = value.split(separator: ",", omittingEmptySubsequences: false)
            if value.trimmingCharacters(in: " \t") != value
                || members.contains(where: { $0.trimmingCharacters(in: " \t").isEmpty })
            {
                return .refuse(status: 400)
            }
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

    /// RFC 9110 §5.6.2's tchar, by its list.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let others = Set("!#$%&'*+-.^_`|~".utf8)
        return (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || others.contains(byte)
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
