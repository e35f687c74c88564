/// Reading a view from query parameters, and writing it back in one spelling.
extension TableQuery {
    /// The view the query parameters `q`, `filter[KEY]`, `filter[KEY][OP]`,
    /// `sort` and `group` describe; other parameters are not the view's and are
    /// left alone. Throws for a parameter that describes no view (an unknown key
    /// or operator, an empty sort key, a malformed `filter` name). An empty
    /// `sort` or `group` asks for none (over a table's `defaultView`).
    public init(parameters: [String: String]) throws(TableQueryError) {
        self.init()
        if let q = parameters["q"] {
            words = try Self.searchWords(
                q.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init))
        }
        for name in parameters.keys.sorted() where name.hasPrefix("filter") {
            filters.append(try Self.filter(name: name, value: parameters[name]!))
        }
        if let sort = parameters["sort"], !sort.isEmpty {
            // Split by bytes: a "," can be part of a Character (after a prepended mark).
            self.sort = try sort.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                (part) throws(TableQueryError) in
                try Self.sortKey(String(decoding: part, as: UTF8.self), parameter: "sort")
            }
        }
        if let group = parameters["group"], !group.isEmpty {
            self.group = try Self.sortKey(group, parameter: "group")
        }
    }

    /// The query's parameters in their one order, as names and values: `q`, the
    /// filters by name, `sort`, `group`; none for the table itself.
    public var canonicalItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if !words.isEmpty { items.append(("q", words.joined(separator: " "))) }
        for filter in filters {
            let name = "filter[\(filter.key.name)]" + (filter.op == .eq ? "" : "[\(filter.op.rawValue)]")
            items.append((name, filter.value))
        }
        if !sort.isEmpty { items.append(("sort", sort.map(\.name).joined(separator: ","))) }
        if let group { items.append(("group", group.name)) }
        return items
    }

    /// The query in its one spelling, without `?`: `canonicalItems`, each
    /// percent-encoded; empty for the table itself.
    public var canonicalQuery: String {
        canonicalItems.map { "\(Self.percentEncoded($0.name, keepingBrackets: true))=\(Self.percentEncoded($0.value))" }
            .joined(separator: "&")
    }

    private static func filter(name: String, value: String) throws(TableQueryError) -> ViewFilter {
        let usage = "a filter is filter[KEY]=VALUE or filter[KEY][OP]=VALUE"
        // By bytes, as the brackets are written: a key's first or last scalar
        // may join a bracket into one Character (a combining mark, an emoji modifier).
        let bytes = Array(name.utf8), opening = Array("filter[".utf8)
        guard bytes.starts(with: opening), bytes.count > opening.count, bytes.last == UInt8(ascii: "]") else {
            throw TableQueryError(parameter: name, detail: "\(usage), KEY one of \(ViewKey.allowed)")
        }
        guard let parts = Self.bracketed(bytes[opening.count..<(bytes.count - 1)]), parts.count <= 2 else {
            throw TableQueryError(parameter: name, detail: "\(usage), KEY one of \(ViewKey.allowed)")
        }
        guard let key = ViewKey(name: String(parts[0])) else {
            throw TableQueryError(
                parameter: name, detail: "unknown key \"\(parts[0])\": KEY is one of \(ViewKey.allowed)")
        }
        var op = ViewFilter.Operator.eq
        if parts.count == 2 {
            guard let named = ViewFilter.Operator(rawValue: String(parts[1])) else {
                let names = ViewFilter.Operator.allCases.map(\.rawValue).joined(separator: ", ")
                throw TableQueryError(
                    parameter: name, detail: "unknown operator \"\(parts[1])\": OP is one of \(names)")
            }
            op = named
        }
        if op != .eq && op != .ne && value.isEmpty {
            throw TableQueryError(parameter: name, detail: "\(op.rawValue) needs a value to compare with")
        }
        return ViewFilter(key: key, op: op, value: value)
    }

    /// The parts of `KEY` or `KEY][OP` (inside a filter's outer brackets),
    /// split at `][`; nil for a lone `[` or `]` anywhere.
    private static func bracketed(_ inner: ArraySlice<UInt8>) -> [String]? {
        var parts: [String] = []
        var start = inner.startIndex, index = inner.startIndex
        while index < inner.endIndex {
            let byte = inner[index]
            if byte == UInt8(ascii: "]"), index + 1 < inner.endIndex, inner[index + 1] == UInt8(ascii: "[") {
                parts.append(String(decoding: inner[start..<index], as: UTF8.self))
                index += 2
                start = index
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") {
                return nil
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: inner[start..<inner.endIndex], as: UTF8.self))
        return parts
    }

    private static func sortKey(_ text: String, parameter: String) throws(TableQueryError) -> ViewSortKey {
        let descending = text.utf8.first == UInt8(ascii: "-")
        let name = descending ? String(decoding: text.utf8.dropFirst(), as: UTF8.self) : text
        guard let key = ViewKey(name: name) else {
            let shape = parameter == "sort" ? "a comma-separated list of KEY or -KEY" : "KEY or -KEY"
            throw TableQueryError(
                parameter: parameter,
                detail: "\"\(text)\" is no key: \(parameter) is \(shape), KEY one of \(ViewKey.allowed)")
        }
        return ViewSortKey(key: key, descending: descending)
    }

    /// `text` with every byte outside RFC 3986's unreserved set and `,`
    /// percent-encoded (but `[` and `]` when `keepingBrackets`, for readable filter names).
    static func percentEncoded(_ text: String, keepingBrackets: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ","):
                bytes.append(byte)
            case UInt8(ascii: "["),
                UInt8(ascii: "]") where keepingBrackets:
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension TableQuery {
    /// The most different words a search may have (docs/API.md, "Views").
    public static let maxSearchWords = 32

    /// The words a search must find, as few as find the same rows: a word
    /// another word holds (once folded: `a` in `Apple`, `san` twice) is
    /// dropped, since every row that holds the longer one holds it too. So the
    /// cost of a search grows with its different words, at most
    /// ``maxSearchWords``, never with repeats: `q` of one letter written 4,000
    /// times cost seconds of CPU a request.
    static func searchWords(_ words: [String]) throws(TableQueryError) -> [String] {
        var folded: [[UInt8]] = []
        var kept: [String] = []
        var seen: Set<[UInt8]> = []
        for word in words {
            let key = TextFolding.fold(word)
            guard seen.insert(key).inserted else { continue }
            guard kept.count < maxSearchWords else {
                throw TableQueryError(
                    parameter: "q", detail: "a search has at most \(maxSearchWords) different words")
            }
            folded.append(key)
            kept.append(word)
        }
        let held = folded.indices.filter { index in
            folded.indices.contains { other in
                other != index && folded[other].count > folded[index].count
                    && folded[other].withUnsafeBufferPointer { longer in
                        folded[index].withUnsafeBufferPointer { TextFolding.find($0, in: longer) != nil }
                    }
            }
        }
        return kept.indices.filter { !held.contains($0) }.map { kept[$0] }
    }
}
