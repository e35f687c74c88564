import Testing
@testable import TableModel

/// A `RowList` read on one task while another edits its copy: the model's one
/// suite that starts a task, kept apart so that ThreadSanitizer builds it
/// without the suites of pure values (Package.swift).
@Suite("RowList shared across tasks")
struct RowListSharingTests {
    /// A row that stands for the number `n`.
    static func row(_ n: Int) -> Row { Row(indentationLevel: n) }

    @Test func aReaderOnAnotherTaskSeesItsOwnCopy() async {
        var list = RowList((0..<20_000).map(Self.row))
        let snapshot = list
        let reader = Task.detached {
            var sums: Set<Int> = []
            for _ in 0..<20 {
                sums.insert(snapshot.reduce(0) { $0 + $1.indentationLevel })
            }
            return sums
        }
        for step in 0..<2_000 {
            list.insert(Self.row(1), at: step * 7)
            list.remove(at: list.count - 1)
        }
        let sums = await reader.value
        #expect(sums == [(0..<20_000).reduce(0, +)])
        #expect(list.count == 20_000)
        #expect(list.invariantViolations().isEmpty)
    }
}
