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
            words = q.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        }
        for name in parameters.keys.sorted() where name.hasPrefix("filter") {
            filters.append(try Self.filter(name: name, value: parameters[name]!))
        }
        if let sort = parameters["sort"], !sort.isEmpty {
            self.sort = try sort.split(separator: ",", omittingEmptySubsequences: false).map {
                (part) throws(TableQueryError) in try Self.sortKey(String(part), parameter: "sort")
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
        guard name.hasPrefix("filter["), name.hasSuffix("]") else {
            throw TableQueryError(parameter: name, detail: "\(usage), KEY one of \(ViewKey.allowed)")
        }
        let inner = name.dropFirst("filter[".count).dropLast()
        let parts = inner.split(separator: "][", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts.contains(where: { $0.contains("[") || $0.contains("]") }) else {
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

    private static func sortKey(_ text: String, parameter: String) throws(TableQueryError) -> ViewSortKey {
        let descending = text.hasPrefix("-")
        let name = descending ? String(text.dropFirst()) : text
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
