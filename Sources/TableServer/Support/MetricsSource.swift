import MicroHTTP
import Synchronization

/// Where `/metrics` reads the HTTP server's counters from. The routes are built
/// before the server that serves them, so the server is attached afterwards;
/// answered in-process (no server), the HTTP part is empty.
final class MetricsSource: Sendable {
    /// Weak: the server holds the routes that hold this.
    private struct Attachment: Sendable {
        weak var server: HTTPServer?
    }

    private let attachment = Mutex(Attachment())

    func attach(_ http: HTTPServer) {
        attachment.withLock { $0.server = http }
    }

    func prometheusText() -> String {
        attachment.withLock { $0.server }?.metrics.prometheusText() ?? ""
    }
}
