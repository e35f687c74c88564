/// The sizes a decoded table, section, row or batch may have; input beyond them
/// is refused with a validation issue. The defaults are docs/FORMAT.md's.
public struct ModelLimits: Sendable, Equatable {
    /// UTF-8 bytes of one text field (`text`, `detail`, `header`, a string in `fields`, …).
    public var maxFieldBytes: Int
    /// Characters of an id or template name (`[A-Za-z0-9_-]{1,maxIDLength}`).
    public var maxIDLength: Int
    /// UTF-8 bytes of one URL (`image`, `link`, `detailLink`).
    public var maxURLBytes: Int
    /// Members of a custom row's `fields` object.
    public var maxCustomFields: Int
    /// Columns of a file of records (a CSV header row, a JSON record's members),
    /// and so of a table's `source` (docs/FORMAT.md, "source").
    public var maxColumns: Int
    /// The largest `indentationLevel`.
    public var maxIndentationLevel: Int
    /// The largest `height` or `rowHeight`, in CSS pixels.
    public var maxRowHeight: Double
    /// Issues reported for one document; the rest are counted in one last issue,
    /// so that a hostile document cannot make an error answer enormous.
    public var maxIssues: Int

    public init(
        maxFieldBytes: Int = 65_536,
        maxIDLength: Int = 64,
        maxURLBytes: Int = 8_192,
        maxCustomFields: Int = 256,
        maxColumns: Int = 2_000,
        maxIndentationLevel: Int = 16,
        maxRowHeight: Double = 10_000,
        maxIssues: Int = 1_000
    ) {
        self.maxFieldBytes = maxFieldBytes
        self.maxIDLength = maxIDLength
        self.maxURLBytes = maxURLBytes
        self.maxCustomFields = maxCustomFields
        self.maxColumns = maxColumns
        self.maxIndentationLevel = maxIndentationLevel
        self.maxRowHeight = maxRowHeight
        self.maxIssues = maxIssues
    }

    /// Whether `string` is an id or a name: `[A-Za-z0-9_-]{1,maxIDLength}`.
    public func isIdentifier(_ string: String) -> Bool {
        let utf8 = string.utf8
        guard !utf8.isEmpty, utf8.count <= maxIDLength else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// The limits of docs/FORMAT.md.
    public static let `default` = ModelLimits()
}
