import JSON
import SeededRandom
import Testing
@testable import TableModel

/// A search reads a row's texts from its leaf's `SearchText`, kept until the
/// leaf's rows change; held here against folding each text and looking for
/// each word in it, on random rows, words and edits.
@Suite("Search: a leaf's texts side by side")
struct SearchTextTests {
    static let pieces = ["a", "B", "s", "ã", "a\u{0303}", "ß", "Σ", "é", "1", " ", "ﬁ", "İ", "o", "ÿ", "\u{0301}"]

    static func text(using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func row(using random: inout SeededGenerator) -> Row {
        var members: [JSONMember] = []
        for name in ["state", "count", "note"] where Bool.random(using: &random) {
            members.append(JSONMember(name, name == "count" ? .integer(12) : .string(text(using: &random))))
        }
        return Row(
            text: text(using: &random), detail: Bool.random(using: &random) ? text(using: &random) : nil,
            fields: JSONObject(members))
    }

    /// One to three words, none holding a space (as `q` splits them), folded.
    static func words(using random: inout SeededGenerator) -> [[UInt8]] {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in
            TextFolding.fold(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    pieces.filter { $0 != " " }.randomElement(using: &random)!
                }
                .joined())
        }
    }

    /// Whether every word is in one of the row's texts, each folded alone.
    static func reference(_ row: Row, _ words: [[UInt8]]) -> Bool {
        let texts =
            ([row.text, row.detail].compactMap { $0 }
            + row.fields.members.compactMap {
                if case .string(let text) = $0.value { return text } else { return nil }
            })
            .map(TextFolding.fold)
        return words.allSatisfy { word in
            texts.contains { text in
                word.isEmpty
                    || (text.count >= word.count
                        && (0...(text.count - word.count)).contains { text[$0..<($0 + word.count)].elementsEqual(word) })
            }
        }
    }

    static func found(_ list: RowList, _ words: [[UInt8]], in range: Range<Int>) -> [Int] {
        var positions: [Int] = []
        list.forEachRow(in: range, containing: SearchWords(words)) { position, row in
            #expect(row.pointee == list[position])
            positions.append(position)
        }
        return positions
    }

    @Test("a leaf's texts find the rows folding each text finds, in any range")
    func findsWhatFoldingFinds() {
        var random = SeededGenerator(seed: 31_001)
        let rows = (0..<400).map { _ in Self.row(using: &random) }
        let list = RowList(rows)
        for _ in 0..<600 {
            let words = Self.words(using: &random)
            let lower = Int.random(in: 0...rows.count, using: &random)
            let range = lower..<Int.random(in: lower...rows.count, using: &random)
            let expected = range.filter { Self.reference(rows[$0], words) }
            #expect(Self.found(list, words, in: range) == expected, "\(words) in \(range)")
            let one = rows[Int.random(in: 0..<rows.count, using: &random)]
            let selection = RowSelection(TableQuery(words: words.map { String(decoding: $0, as: UTF8.self) }))
            #expect(selection.matches(one, in: Section()) == Self.reference(one, words))
        }
    }

    @Test("an edited list is searched as it is now, and a copy taken before as it was")
    func editsDropTheTexts() {
        var random = SeededGenerator(seed: 31_002)
        RandomRowEdit.run(using: &random, row: { Self.row(using: &$0) }) { list, rows, label, random in
            let words = Self.words(using: &random)
            #expect(
                Self.found(list, words, in: 0..<list.count) == rows.indices.filter { Self.reference(rows[$0], words) },
                "\(label): \(words)")
        }
    }
}
