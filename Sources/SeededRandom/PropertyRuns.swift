import Foundation

/// How many seeds a random property test runs: its full count, times
/// `WEBTABLEVIEW_PROPERTY_SCALE` from the environment (1 without it), and
/// never fewer than one. The sanitizer runs set it below 1
/// (scripts/test-sanitizers.sh): every seed still runs in the plain
/// `swift test` of make test, and an instrumented build is several times
/// slower for what memory and data races need of these tests, one seed or
/// eight (docs/RELIABILITY.md, "Sanitizers").
public enum PropertyRuns {
    /// The scale read from the environment, in (0, 1]; 1 when unset or not a number.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["WEBTABLEVIEW_PROPERTY_SCALE"],
            let scale = Double(text), scale > 0, scale < 1
        else { return 1 }
        return scale
    }()

    /// `count`, scaled: at least 1.
    public static func count(_ count: Int) -> Int {
        max(1, Int((Double(count) * scale).rounded()))
    }

    /// The first `count(n)` of the seeds `0..<n`.
    public static func seeds(_ n: Int) -> Range<UInt64> {
        0..<UInt64(count(n))
    }

    /// The first `count(seeds.count)` of `seeds`.
    public static func seeds(_ seeds: [UInt64]) -> [UInt64] {
        Array(seeds.prefix(count(seeds.count)))
    }
}
