import Foundation

/// How long a test waits for the server: each timeout of this module, times
/// `WEBTABLEVIEW_TEST_TIMEOUT_SCALE` from the environment (1 without it).
/// The sanitizer runs set it (scripts/test-sanitizers.sh): a ThreadSanitizer
/// build runs the server many times slower, and a request that takes a second
/// in a plain build can take ten there on a busy machine. A test that waits
/// for something never to happen waits longer too, and still fails when it does.
public enum TestTimeouts {
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["WEBTABLEVIEW_TEST_TIMEOUT_SCALE"],
            let scale = Double(text), scale >= 1
        else { return 1 }
        return scale
    }()

    /// `timeout`, scaled.
    public static func scaled(_ timeout: Duration) -> Duration {
        timeout * scale
    }
}
