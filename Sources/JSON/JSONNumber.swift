/// A JSON number that is not a plain `Int`, kept exactly as it was written
/// (`1.50`, `1e3`, `-0`, `12345678901234567890`): written back with the same
/// characters, and ordered by its exact decimal value, so that no digit is lost
/// past `Double`'s 53 bits (docs/FORMAT.md, "Numbers").
///
/// A value is made only by ``JSONValue/number(literal:)`` (or the parser), which
/// keeps the invariant that makes equality simple: a literal that `Int` writes the
/// same way (`42`, `-7`) is always `JSONValue.integer`, never a `JSONNumber`. So two
/// numbers are the same `JSONValue` exactly when they are written the same way.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written: RFC 8259's `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    public let literal: String

    init(unchecked literal: String) { self.literal = literal }

    /// The nearest `Double` (±infinity beyond its range; `-0` is `-0.0`).
    public var double: Double { Double(literal) ?? 0 }

    public var description: String { literal }

    /// The order of two number literals by their exact decimal values (`1.50`
    /// and `1.5` are the same; `-0` and `0` too); each must be a JSON number.
    ///
    /// O(n) in the literals' lengths: each is read once into a sign, its
    /// significant digits and the power of ten of the first one.
    public static func compare(_ first: some StringProtocol, _ second: some StringProtocol) -> Ordering {
        let a = Decimal(first.utf8)
        let b = Decimal(second.utf8)
        if a.negative != b.negative { return a.negative ? .before : .after }
        let magnitude = a.compareMagnitude(to: b)
        return a.negative ? magnitude.reversed : magnitude
    }

    /// Three ways two values can be ordered.
    public enum Ordering: Sendable, Equatable {
        case before, same, after

        var reversed: Ordering {
            switch self {
            case .before: .after
            case .same: .same
            case .after: .before
            }
        }
    }

    /// A literal read as `±0.d₁d₂…dₙ × 10^exponent` with `d₁ ≠ 0` and `dₙ ≠ 0`;
    /// zero has no digits and is never negative.
    private struct Decimal {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init(_ bytes: some Collection<UInt8>) {
            var pointPosition: Int?
            var leadingZeros = 0
            var seen = 0
            var exponentText: Int?
            var exponentNegative = false
            for byte in bytes {
                if var written = exponentText {
                    if byte == UInt8(ascii: "-") {
                        exponentNegative = true
                    } else if byte != UInt8(ascii: "+") {
                        // Saturates: an exponent past a billion orders like infinity.
                        written = Swift.min(written * 10 + Int(byte &- UInt8(ascii: "0")), 1_000_000_000)
                    }
                    exponentText = written
                    continue
                }
                switch byte {
                case UInt8(ascii: "-"): negative = true
                case UInt8(ascii: "."): pointPosition = seen
                case UInt8(ascii: "e"), UInt8(ascii: "E"): exponentText = 0
                default:
                    if digits.isEmpty && byte == UInt8(ascii: "0") {
                        leadingZeros += 1
                    } else {
                        digits.append(byte)
                    }
                    seen += 1
                }
            }
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
            guard !digits.isEmpty else {
                negative = false
                return
            }
            let written = exponentText ?? 0
            exponent = (pointPosition ?? seen) - leadingZeros + (exponentNegative ? -written : written)
        }

        func compareMagnitude(to other: Decimal) -> Ordering {
            if digits.isEmpty || other.digits.isEmpty {
                return digits.isEmpty ? (other.digits.isEmpty ? .same : .before) : .after
            }
            if exponent != other.exponent { return exponent < other.exponent ? .before : .after }
            for (a, b) in zip(digits, other.digits) where a != b { return a < b ? .before : .after }
            if digits.count == other.digits.count { return .same }
            return digits.count < other.digits.count ? .before : .after
        }
    }
}

extension JSONValue {
    /// The number `literal` writes, kept as written: `.integer` when `Int` writes
    /// it the same way, otherwise `.number`; nil when it is not a JSON number
    /// (`01234`, `+5`, ` 7`, `1,5`, `NaN`, `.5`).
    public static func number(literal: some StringProtocol) -> JSONValue? {
        guard isNumberLiteral(literal.utf8) else { return nil }
        return numberOfValidLiteral(String(literal))
    }

    /// A number as code computes it: `.integer` when it is a whole number `Int`
    /// holds exactly (below 2^53), else the shortest text that reads back as the
    /// same `Double` (`1.5`, `1e+300`, `-0`); `null` for a value JSON cannot write.
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value.rounded(.towardZero) == value, value.magnitude < 0x1p53, !(value == 0 && value.sign == .minus) {
            return .integer(Int(value))
        }
        return .number(JSONNumber(unchecked: value == 0 ? "-0" : value.description))
    }

    /// The value of a number as the nearest `Double`; nil for anything else.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number.double
        default: nil
        }
    }

    /// A literal already known to be a JSON number.
    static func numberOfValidLiteral(_ literal: String) -> JSONValue {
        if let integer = Int(literal), !(integer == 0 && literal.utf8.first == UInt8(ascii: "-")) {
            return .integer(integer)
        }
        return .number(JSONNumber(unchecked: literal))
    }

    /// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumberLiteral(_ text: some Collection<UInt8>) -> Bool {
        var bytes = text[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 &- UInt8(ascii: "0") < 10 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
