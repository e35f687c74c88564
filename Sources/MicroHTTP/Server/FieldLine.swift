import Glibc

/// The syntax of one header field line (RFC 9112 §5, RFC 9110 §5.5), judged
/// from where libmicrohttpd 0.9.75 left it (docs/RELIABILITY.md, "Framing").
///
/// libmicrohttpd parses `name: value CRLF` in place: the name, a NUL over the
/// colon, the spaces and tabs before the value, the value (trailing
/// whitespace kept), and NULs over CR and LF. It keeps whitespace before the
/// colon in the name, stops a value at a NUL, keeps a bare CR, ends a line at
/// LF alone, and appends an obs-fold continuation line to the *name*, copied
/// elsewhere in its memory. So each defect shows in that layout: a name that
/// is not a token; a value not a few spaces after its name (folded); a CR in
/// the value; a second NUL missing after the value (a NUL inside it, or a line
/// ended by LF alone); the next field not starting right after the two NULs,
/// nor the empty line (two more NULs) after the last (NULs inside the value).
/// What stays unseen: NUL bytes ending the last field's value, or a run of
/// four or more inside it, which the server reads cut at the first NUL as
/// libmicrohttpd does; a NUL right before a line's LF, which lies where a CR
/// would; and a last field line ended by LF alone when no body byte follows
/// the empty line.
enum FieldLine {
    /// What is wrong with a field line.
    enum Defect: Equatable {
        /// Whitespace before the colon, or another byte a token does not take.
        case nameNotToken
        /// An obs-fold continuation line (RFC 9112 §5.2).
        case folded
        /// A CR or NUL in the value (RFC 9110 §5.5).
        case controlInValue
        /// Ended by LF alone, not CRLF.
        case notEndedByCRLF

        var detail: String {
            switch self {
            case .nameNotToken: "A header field name is not a token (whitespace before its colon, say)."
            case .folded: "A header field value is continued on another line (obs-fold)."
            case .controlInValue: "A header field value holds a CR or NUL byte."
            case .notEndedByCRLF: "A header field line ends in LF alone, or its value holds a NUL byte."
            }
        }
    }

    /// The defect of the field `name` (`nameSize` bytes) with `value`
    /// (`valueSize` bytes), both where libmicrohttpd parsed them; nil for a
    /// well-formed line.
    static func defect(
        name: UnsafePointer<CChar>, nameSize: Int, value: UnsafePointer<CChar>, valueSize: Int
    ) -> Defect? {
        let name = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
        let value = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
        guard nameSize > 0, UnsafeBufferPointer(start: name, count: nameSize).allSatisfy(isTokenByte) else {
            return .nameNotToken
        }
        // The colon's NUL, then spaces and tabs up to the value, else the name was moved.
        var next = name + nameSize + 1
        guard name[nameSize] == 0, next <= value else {
            return .folded
        }
        while next < value {
            guard next.pointee == UInt8(ascii: " ") || next.pointee == UInt8(ascii: "\t") else {
                return .folded
            }
            next += 1
        }
        guard memchr(value, Int32(UInt8(ascii: "\r")), valueSize) == nil else {
            return .controlInValue
        }
        guard value[valueSize] == 0, value[valueSize + 1] == 0 else {
            return .notEndedByCRLF
        }
        return nil
    }

    /// Whether `line` is the empty line that ends a header block, as
    /// libmicrohttpd leaves it (two NULs over its CR LF).
    static func isEmptyLine(_ line: UnsafePointer<CChar>) -> Bool {
        line[0] == 0 && line[1] == 0
    }

    /// RFC 9110 §5.6.2's tchar: a bit per ASCII byte, 0–63 then 64–127 (two
    /// shifts on the path of every request, no table to load).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        byte < 64
            ? (0x03FF_6CFA_0000_0000 as UInt64) >> byte & 1 == 1
            : byte < 128 && (0x57FF_FFFF_C7FF_FFFE as UInt64) >> (byte - 64) & 1 == 1
    }
}
