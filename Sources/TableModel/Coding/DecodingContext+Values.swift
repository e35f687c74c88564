import JSON

/// Readers of single values. Each reports what is wrong at the current path and
/// answers nil, so that the caller can go on with a default.
extension DecodingContext {
    /// A string of at most `limits.maxFieldBytes` UTF-8 bytes; `name` names it in messages.
    mutating func text(_ value: JSONValue, _ name: String) -> String? {
        guard case .string(let string) = value else {
            report("expected a string, found \(value.kindDescription)")
            return nil
        }
        let size = string.utf8.count
        guard size <= limits.maxFieldBytes else {
            report("\(name) is \(size) bytes; the limit is \(limits.maxFieldBytes)")
            return nil
        }
        return string
    }

    /// Like `text(_:_:)`, but `null` is allowed and means none.
    mutating func optionalText(_ value: JSONValue, _ name: String) -> String? {
        if case .null = value { return nil }
        guard case .string = value else {
            report("expected a string or null, found \(value.kindDescription)")
            return nil
        }
        return text(value, name)
    }

    /// A table's `access`: an object, kept as given (the server reads its
    /// rules, docs/FORMAT.md "Access policy"), or `null` for none.
    mutating func accessMember(_ value: JSONValue) -> JSONObject? {
        switch value {
        case .null: return nil
        case .object(let object): return object
        default:
            report("expected an object (the table's access rules) or null, found \(value.kindDescription)")
            return nil
        }
    }

    mutating func bool(_ value: JSONValue) -> Bool? {
        guard case .bool(let bool) = value else {
            report("expected true or false, found \(value.kindDescription)")
            return nil
        }
        return bool
    }

    /// One of the raw values of `Choice`; an unknown value is reported with the allowed ones.
    mutating func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ value: JSONValue, _ type: Choice.Type = Choice.self
    ) -> Choice? {
        guard case .string(let string) = value else {
            report("expected a string, found \(value.kindDescription)")
            return nil
        }
        guard let choice = Choice(rawValue: string) else {
            report(
                "unknown value \(Self.quote(string)); expected one of \(Choice.allCases.map { Self.quote($0.rawValue) }.joined(separator: ", "))"
            )
            return nil
        }
        return choice
    }

    /// An integer; a number with a zero fraction (`2.0`) counts as one.
    mutating func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let integer):
            return integer
        case .number(let number) where !number.double.isFinite:
            report(Self.beyondRange)
        case .number(let number):
            if let integer = Int(exactly: number.double) { return integer }
            report("expected an integer, found \(number.literal)")
        default:
            report("expected an integer, found \(value.kindDescription)")
        }
        return nil
    }

    /// An integer in `range`.
    mutating func integer(_ value: JSONValue, in range: ClosedRange<Int>) -> Int? {
        guard let integer = integer(value) else { return nil }
        guard range.contains(integer) else {
            report("expected an integer from \(range.lowerBound) to \(range.upperBound), found \(integer)")
            return nil
        }
        return integer
    }

    /// A position or count: an integer ≥ 0.
    mutating func index(_ value: JSONValue) -> Int? {
        guard let integer = integer(value) else { return nil }
        guard integer >= 0 else {
            report("expected a non-negative integer, found \(integer)")
            return nil
        }
        return integer
    }

    /// `[section, row]`.
    mutating func indexPath(_ value: JSONValue) -> TableIndexPath? {
        guard case .array(let elements) = value else {
            report("expected an index path [section, row], found \(value.kindDescription)")
            return nil
        }
        guard elements.count == 2 else {
            report("expected an index path [section, row], found an array of \(elements.count) elements")
            return nil
        }
        let section = at(index: 0) { $0.index(elements[0]) }
        let row = at(index: 1) { $0.index(elements[1]) }
        guard let section, let row else { return nil }
        return TableIndexPath(section, row)
    }

    /// A row of `section`: its index, or its index path `[section, row]`.
    mutating func row(_ value: JSONValue, inSection section: Int) -> Int? {
        switch value {
        case .array: break
        case .integer, .number: return index(value)
        default:
            report("expected a row or an index path [section, row], found \(value.kindDescription)")
            return nil
        }
        guard let indexPath = indexPath(value) else { return nil }
        guard indexPath.section == section else {
            report(
                "the index path [\(indexPath.section), \(indexPath.row)] names section \(indexPath.section), but the request is for section \(section)"
            )
            return nil
        }
        return indexPath.row
    }

    /// A row height in CSS pixels: finite, greater than 0, at most `limits.maxRowHeight`.
    mutating func height(_ value: JSONValue) -> Double? {
        let height: Double
        switch value {
        case .integer(let integer): height = Double(integer)
        case .number(let number): height = number.double
        default:
            report("expected a number, found \(value.kindDescription)")
            return nil
        }
        guard height.isFinite else {
            report(Self.beyondRange)
            return nil
        }
        guard height > 0, height <= limits.maxRowHeight else {
            let limit = Self.format(limits.maxRowHeight)
            report("expected a number greater than 0 and at most \(limit), found \(Self.format(height))")
            return nil
        }
        return height
    }

    /// An id or a name: `[A-Za-z0-9_-]{1,maxIDLength}`; `name` names it in messages.
    mutating func identifier(_ value: JSONValue, _ name: String) -> String? {
        guard case .string(let string) = value else {
            report("expected a string, found \(value.kindDescription)")
            return nil
        }
        guard isIdentifier(string) else {
            report("\(name) must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}")
            return nil
        }
        return string
    }

    /// Like `identifier(_:_:)`, but `null` is allowed and means none.
    mutating func optionalIdentifier(_ value: JSONValue, _ name: String) -> String? {
        if case .null = value { return nil }
        return identifier(value, name)
    }

    func isIdentifier(_ string: String) -> Bool {
        limits.isIdentifier(string)
    }

    /// What a number beyond `Double`'s range (read as infinity) is told.
    static let beyondRange = "number out of range (beyond ±1.8e308)"

    /// A number as JSON writes it: `44`, `1.5`.
    static func format(_ double: Double) -> String {
        String(decoding: JSONValue.double(double).jsonBytes, as: UTF8.self)
    }
}
