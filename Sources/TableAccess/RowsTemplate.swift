import TableModel

/// The view a rule binds its requesters' reads to (a rule's `rows`,
/// docs/FORMAT.md, "Access policy"): view parameters in the views' own query
/// syntax (`filter[fields.owner][eq]={sub}`), a filter's value naming claims
/// in braces.
///
/// The text is split into parameters, and their names and view checked, when
/// the policy is read; a claim's value is put into a filter's value after
/// that, as a value, never read as syntax: a `sub` of `x&sort=text` or
/// `{team}` is a filter value with those characters, nothing more.
struct RowsTemplate: Sendable, Equatable {
    /// The parameters in the order written, each value cut into literal text
    /// and claim names.
    let parameters: [(name: String, value: [Piece])]

    /// A part of a parameter's value.
    enum Piece: Sendable, Equatable {
        case text(String)
        /// `{name}`: the token's claim `name`.
        case claim(String)
    }

    /// Reads `text`, or says why it is no view.
    init(_ text: String) throws(RowsTemplateError) {
        var parameters: [(name: String, value: [Piece])] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = Self.percentDecoded(parts[0]), !name.isEmpty,
                let value = Self.percentDecoded(parts[1])
            else {
                throw RowsTemplateError("\"\(pair)\" is not NAME=VALUE (percent-encoded)")
            }
            guard ["q", "sort", "group"].contains(name) || name.hasPrefix("filter[") else {
                throw RowsTemplateError("\(name) is not a view's parameter: q, filter[KEY][OP], sort or group")
            }
            guard !parameters.contains(where: { $0.name == name }) else {
                throw RowsTemplateError("\(name) is given twice")
            }
            let pieces = try Self.pieces(of: value)
            if !name.hasPrefix("filter"), pieces.contains(where: { if case .claim = $0 { true } else { false } }) {
                throw RowsTemplateError("\(name): a claim may stand only in a filter's value")
            }
            parameters.append((name, pieces))
        }
        guard parameters.contains(where: { $0.name == "q" || $0.name.hasPrefix("filter") }) else {
            throw RowsTemplateError("a view of rows has q or a filter")
        }
        self.parameters = parameters
        // Checked with every claim a word: a claim makes only a filter's value.
        do throws(TableQueryError) {
            _ = try TableQuery(parameters: example)
        } catch {
            throw RowsTemplateError("\(error.parameter): \(error.detail)")
        }
    }

    /// The view for a token's claims; nil when a claim it names is missing,
    /// not a string, or leaves a filter without the value it needs.
    func query(for claims: BearerClaims) -> TableQuery? {
        var values: [String: String] = [:]
        for (name, pieces) in parameters {
            var value = ""
            for piece in pieces {
                switch piece {
                case .text(let text): value += text
                case .claim(let claim):
                    guard case .string(let claimed)? = claims.claims[claim] else { return nil }
                    value += claimed
                }
            }
            values[name] = value
        }
        return try? TableQuery(parameters: values)
    }

    /// The parameters with each claim a word, to check the view's syntax.
    private var example: [String: String] {
        var values: [String: String] = [:]
        for (name, pieces) in parameters {
            values[name] = pieces.map { if case .text(let text) = $0 { text } else { "claim" } }.joined()
        }
        return values
    }

    /// `value` cut at its `{claim}`s; `{{` and `}}` stand for a brace.
    private static func pieces(of value: String) throws(RowsTemplateError) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            let next = value.index(after: index)
            if character == "{" || character == "}", next < value.endIndex, value[next] == character {
                text.append(character)
                index = value.index(after: next)
            } else if character == "{" {
                guard let close = value[next...].firstIndex(of: "}"), close > next,
                    !value[next..<close].contains("{")
                else {
                    throw RowsTemplateError("\"\(value)\": a claim is {NAME}, a brace alone is {{ or }}")
                }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.claim(String(value[next..<close])))
                index = value.index(after: close)
            } else if character == "}" {
                throw RowsTemplateError("\"\(value)\": a claim is {NAME}, a brace alone is {{ or }}")
            } else {
                text.append(character)
                index = next
            }
        }
        if !text.isEmpty || pieces.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    /// `text` with `%XX` decoded; nil when an escape or the bytes are not valid.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, rest.prefix(2).allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                let escaped = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(escaped)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func == (lhs: RowsTemplate, rhs: RowsTemplate) -> Bool {
        lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }
}

/// Why a rule's `rows` is no view.
struct RowsTemplateError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
