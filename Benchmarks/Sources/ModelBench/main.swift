// Model micro-benchmarks, run by scripts/bench/run.sh; each prints result lines
// `name key=value ...` (times in nanoseconds of thread CPU time).
//
//   ModelBench edits ROWS OPERATIONS ROUNDS
//   ModelBench diff ROWS SECTIONS ROUNDS [swift]
//   ModelBench diff-shapes ROUNDS [DIVISOR]   (the six shapes of DiffBench.shapes)
//   ModelBench memory ROWS MOVES               (memory after loading and after random moves)
//   ModelBench follow ROWS OPERATIONS ROUNDS   (the client's mirror: one published change)
//   ModelBench views ROWS VIEWS EDITS [insert|move]  (one-row edits with that many live views open)
import Glibc

let arguments = CommandLine.arguments.dropFirst().map { $0 }
switch (arguments.first, arguments.count) {
case ("edits", 4):
    EditBench.run(
        rows: Int(arguments[1]) ?? 1000, operations: Int(arguments[2]) ?? 1000, rounds: Int(arguments[3]) ?? 5)
case ("diff", 4), ("diff", 5):
    DiffBench.run(
        rows: Int(arguments[1]) ?? 100_000, sections: Int(arguments[2]) ?? 100,
        rounds: Int(arguments[3]) ?? 5, swiftDifference: arguments.count == 5 && arguments[4] == "swift")
case ("diff-shapes", 2), ("diff-shapes", 3):
    DiffBench.runShapes(rounds: Int(arguments[1]) ?? 3, divisor: arguments.count == 3 ? Int(arguments[2]) ?? 1 : 1)
case ("follow", 4):
    FollowBench.run(
        rows: Int(arguments[1]) ?? 100_000, operations: Int(arguments[2]) ?? 1000, rounds: Int(arguments[3]) ?? 5)
case ("views", 4), ("views", 5):
    ViewBench.run(
        rows: Int(arguments[1]) ?? 1_000_000, views: Int(arguments[2]) ?? 100, edits: Int(arguments[3]) ?? 200,
        kind: arguments.count == 5 ? ViewBench.Kind(rawValue: arguments[4]) ?? .reload : .reload)
case ("memory", 3):
    MemoryBench.run(rows: Int(arguments[1]) ?? 1_000_000, moves: Int(arguments[2]) ?? 1_000_000)
default:
    print(
        "usage: ModelBench edits ROWS OPERATIONS ROUNDS | diff ROWS SECTIONS ROUNDS [swift] | diff-shapes ROUNDS [DIVISOR] | memory ROWS MOVES | follow ROWS OPERATIONS ROUNDS | views ROWS VIEWS EDITS [insert|move]"
    )
    exit(2)
}
