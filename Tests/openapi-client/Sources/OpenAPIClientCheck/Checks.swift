import Foundation
import OpenAPIRuntime

/// What the run found: every expectation held or not, and the errors the
/// generated client threw (an undocumented status, a body that does not decode).
@MainActor
final class Checks {
    private(set) var passed = 0
    private(set) var failures: [String] = []

    /// Counts `condition`; a failure is printed at once and named in the summary.
    func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
        if condition {
            passed += 1
        } else {
            failures.append(what())
            print("FAIL: \(what())")
        }
    }

    /// Runs one step; an error it throws is a failure named after the step, and
    /// the steps after it still run.
    func step(_ name: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            failures.append("\(name): \(error)")
            print("FAIL: \(name): \(error)")
        }
    }
}

/// A text body (HTML, CSV, Prometheus text, an event stream) as a string.
func text(_ body: HTTPBody) async throws -> String {
    try await String(collecting: body, upTo: 8 << 20)
}
