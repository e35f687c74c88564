import MicroHTTP
import Synchronization

/// Where `/metrics` reads the HTTP server's counters from. The routes are built
/// before the server that serves them, so its recorder is attached afterwards;
/// answered in-process (no server), the HTTP part is empty.
///
/// It holds the recorder, not the server: a weak reference to the server
/// would give it a side table and send every retain of it down the slow path.
final class MetricsSource: Sendable {
    private let recorder = Mutex<HTTPMetricsRecorder?>(nil)

    func attach(_ http: HTTPServer) {
        recorder.withLock { $0 = http.metricsRecorder }
    }

    func prometheusText() -> String {
        recorder.withLock { $0 }?.snapshot().prometheusText() ?? ""
    }
}
