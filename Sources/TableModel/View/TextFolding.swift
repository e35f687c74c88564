/// Text as a view searches and sorts it: ignoring case and diacritics, as iOS
/// search does (`sao` finds "São Paulo"), and compared as the Finder compares
/// names (digits as numbers: "Item 2" before "Item 10").
///
/// TableModel does no I/O and imports no Foundation, so folding is written here:
/// ASCII letters are lowercased; the Latin letters of U+00C0–U+024F lose their
/// marks ("é" → "e", "ß" → "ss", "æ" → "ae"); combining marks (U+0300–U+036F)
/// are dropped, so decomposed text folds like precomposed text; any other
/// scalar is lowercased by its Unicode lowercase mapping. Letters with marks
/// beyond Latin (Vietnamese's precomposed vowels, say) keep their marks.
/// The folded text is UTF-8 bytes, searched and compared bytewise: O(length).
enum TextFolding {
    /// The base letter of each scalar from U+00C0 to U+024F, `.` where none.
    private static let latin: [UInt8] = Array(
        ("aaaaaaaceeeeiiiidnooooo.ouuuuytsaaaaaaaceeeeiiiidnooooo.ouuuuyty"
            + "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii..jjkkklllllll"
            + "lllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs"
            + "b.bb...cc..dd....ff.....kkl...n.oo..pp.....ttttuu..yyzz........."
            + ".............aaiioouuuuuuuuuu.aaaa..ggggkkoooo..j...gg..nnaa...."
            + "aaaaeeeeiiiioooorrrruuuusstt..hhn.....aaeeooooooooyy.........l.."
            + "...b............").utf8)

    /// `text` folded, as UTF-8 bytes.
    static func fold(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        fold(text, into: &bytes)
        return bytes
    }

    /// Appends `text` folded to `bytes`: ASCII text copied whole and
    /// lowercased in place; any other scalar by scalar.
    static func fold(_ text: String, into bytes: inout [UInt8]) {
        let start = bytes.count
        let ascii = text.utf8.withContiguousStorageIfAvailable { utf8 in
            bytes.append(contentsOf: utf8)
            return bytes.withUnsafeMutableBufferPointer { all in
                var seen: UInt8 = 0
                for index in start..<all.count {
                    let byte = all[index]
                    seen |= byte
                    all[index] = byte &- 0x41 < 26 ? byte &+ 0x20 : byte
                }
                return seen < 0x80
            }
        }
        if ascii == true { return }
        bytes.removeSubrange(start...)
        for scalar in text.unicodeScalars { append(scalar, to: &bytes) }
    }

    private static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0x41...0x5A: bytes.append(UInt8(value) + 0x20)
        case 0..<0x80: bytes.append(UInt8(value))
        case 0x300...0x36F: return
        case 0xDF: bytes += Array("ss".utf8)
        case 0xC6, 0xE6: bytes += Array("ae".utf8)
        case 0x152, 0x153: bytes += Array("oe".utf8)
        case 0xDE, 0xFE: bytes += Array("th".utf8)
        case 0xC0...0x24F where latin[Int(value - 0xC0)] != UInt8(ascii: "."):
            bytes.append(latin[Int(value - 0xC0)])
        default:
            bytes += Array(scalar.properties.lowercaseMapping.utf8)
        }
    }

    /// Where `needle` first occurs in `haystack` (both folded), if it does.
    /// O(haystack · needle) at worst; a search's words are short.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first else { return 0 }
        guard haystack.count >= needle.count else { return nil }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count && haystack[start &+ matched] == needle[matched] { matched &+= 1 }
                if matched == needle.count { return start }
            }
            start &+= 1
        }
        return nil
    }

    /// Finder order of two folded texts: runs of digits compare by their value
    /// (then the shorter run, fewer leading zeros, first), everything else byte by byte.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Ordering {
        left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in compare(left, right) } }
    }

    /// Finder order of two folded texts read in place, as `compare(_:_:)` of arrays.
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Ordering {
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            if isDigit(left[i]) && isDigit(right[j]) {
                let leftRun = digitRun(left, from: i)
                let rightRun = digitRun(right, from: j)
                let order = compareRuns(left, leftRun, right, rightRun)
                if order != .same { return order }
                i = leftRun.upperBound
                j = rightRun.upperBound
                continue
            }
            if left[i] != right[j] { return left[i] < right[j] ? .before : .after }
            i += 1
            j += 1
        }
        let leftLeft = left.count - i
        let rightLeft = right.count - j
        return leftLeft == rightLeft ? .same : (leftLeft < rightLeft ? .before : .after)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int> {
        var end = start
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        return start..<end
    }

    private static func compareRuns(
        _ left: UnsafeBufferPointer<UInt8>, _ l: Range<Int>, _ right: UnsafeBufferPointer<UInt8>, _ r: Range<Int>
    ) -> Ordering {
        var leftStart = l.lowerBound
        while leftStart < l.upperBound - 1 && left[leftStart] == 0x30 { leftStart += 1 }
        var rightStart = r.lowerBound
        while rightStart < r.upperBound - 1 && right[rightStart] == 0x30 { rightStart += 1 }
        let leftDigits = l.upperBound - leftStart
        let rightDigits = r.upperBound - rightStart
        if leftDigits != rightDigits { return leftDigits < rightDigits ? .before : .after }
        for offset in 0..<leftDigits where left[leftStart + offset] != right[rightStart + offset] {
            return left[leftStart + offset] < right[rightStart + offset] ? .before : .after
        }
        if l.count != r.count { return l.count < r.count ? .before : .after }
        return .same
    }
}

/// The outcome of comparing two values of a view.
enum Ordering: Equatable {
    case before
    case same
    case after
}
