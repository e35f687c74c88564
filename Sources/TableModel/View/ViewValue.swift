import JSON

/// A row's value for a key of a view, ready to compare: a number, or text both
/// as given and folded (`TextFolding`). Rows without the key have no value.
struct ViewValue {
    enum Kind {
        case number(Double)
        case text
    }

    var kind: Kind
    /// The value as text: a header of `group`, what `prefix` and text compare.
    var display: String
    var folded: [UInt8]

    init(number: Double, display: String) {
        kind = .number(number)
        self.display = display
        folded = TextFolding.fold(display)
    }

    init(text: String) {
        kind = .text
        display = text
        folded = TextFolding.fold(text)
    }

    /// The value of `key` for `row` in section `section`; nil when it has none
    /// (no detail, no such field, a field that is null, an array or an object).
    init?(_ key: ViewKey, of row: Row, in section: Section) {
        switch Self.read(key, of: row, in: section) {
        case .number(let number, let display): self.init(number: number, display: display)
        case .text(let text): self.init(text: text)
        case nil: return nil
        }
    }

    /// What a value is read from, before it is folded: a number and its
    /// literal, or a text.
    enum Read {
        case number(Double, String)
        case text(String)
    }

    /// What `key` reads of `row` in section `section`: the one rule of a
    /// row's value for a key (`init(_:of:in:)`, `SortColumns`).
    static func read(_ key: ViewKey, of row: Row, in section: Section) -> Read? {
        switch key {
        case .text: return .text(row.text)
        case .detail: return row.detail.map(Read.text)
        case .id: return row.id.map(Read.text)
        case .section: return section.id.map(Read.text)
        case .field(let name):
            switch row.fields[name] {
            case .string(let text): return .text(text)
            case .integer(let number): return .number(Double(number), "\(number)")
            case .number(let number): return .number(number.double, number.literal)
            case .bool(let flag): return .text(flag ? "true" : "false")
            default: return nil
            }
        }
    }

    /// Numbers by value, before texts; texts in Finder order.
    func compare(to other: ViewValue) -> Ordering {
        switch (kind, other.kind) {
        case (.number(let a), .number(let b)): Self.compareNumbers(a, display, b, other.display)
        case (.number, .text): .before
        case (.text, .number): .after
        case (.text, .text): TextFolding.compare(folded, other.folded)
        }
    }
}

extension ViewValue {
    /// Two numbers by value, exactly: by their `Double`s, and where those are the
    /// same (`2^53 + 1` and `2^53`), by their literals' decimal values.
    static func compareNumbers(_ a: Double, _ aLiteral: String, _ b: Double, _ bLiteral: String?) -> Ordering {
        if a != b { return a < b ? .before : .after }
        guard let bLiteral, aLiteral != bLiteral else { return .same }
        switch JSONNumber.compare(aLiteral, bLiteral) {
        case .before: return .before
        case .same: return .same
        case .after: return .after
        }
    }
}

/// A filter ready to hold rows against: its value read once, as a number too when it is one.
struct PreparedFilter {
    let key: ViewKey
    let op: ViewFilter.Operator
    let folded: [UInt8]
    let number: Double?
    /// The value when it is a JSON number literal, to compare exactly.
    let literal: String?
    /// For `eq` on a field: the field, and the key a string value must have
    /// to hold (`FieldKeys`), which lets a pass skip the rows whose keys differ.
    let indexed: (field: String, key: UInt32)?

    init(_ filter: ViewFilter) {
        key = filter.key
        op = filter.op
        folded = TextFolding.fold(filter.value)
        number = Double(filter.value).flatMap { $0.isFinite ? $0 : nil }
        literal = JSONValue.number(literal: filter.value) == nil ? nil : filter.value
        if filter.op == .eq, case .field(let name) = filter.key {
            indexed = (name, FieldKeys.key(of: folded))
        } else {
            indexed = nil
        }
    }

    /// Whether the filter holds for `value` (nil: the row has none, which only `ne` lets through).
    func holds(for value: ViewValue?) -> Bool {
        guard let value else { return op == .ne }
        if case .number(let a) = value.kind, let b = number {
            return holds(ViewValue.compareNumbers(a, value.display, b, literal), folded: value.folded)
        }
        return holds(TextFolding.compare(value.folded, folded), folded: value.folded)
    }

    /// Whether the filter holds for the row at `row`, of `section`: as
    /// `holds(for:)` its `ViewValue`, a text folded into `scratch` rather than
    /// into an array of its own, and the row read in place — a pass over a
    /// table's rows copies and allocates nothing a row for it.
    func holds(at row: UnsafePointer<Row>, in section: Section, scratch: inout [UInt8]) -> Bool {
        let text: String?
        switch key {
        case .text: text = row.pointee.text
        case .detail: text = row.pointee.detail
        case .id: text = row.pointee.id
        case .section: text = section.id
        case .field(let name):
            guard case .string(let value) = row.pointee.fields[name] else {
                return holds(for: ViewValue(key, of: row.pointee, in: section))
            }
            text = value
        }
        guard let text else { return op == .ne }
        scratch.removeAll(keepingCapacity: true)
        TextFolding.fold(text, into: &scratch)
        return holds(TextFolding.compare(scratch, folded), folded: scratch)
    }

    /// Whether the filter holds for a value `order` from its own, `folded` as given.
    private func holds(_ order: Ordering, folded value: [UInt8]) -> Bool {
        switch op {
        case .eq: return order == .same
        case .ne: return order != .same
        case .lt: return order == .before
        case .lte: return order != .after
        case .gt: return order == .after
        case .gte: return order != .before
        case .prefix: return value.starts(with: folded)
        }
    }
}
