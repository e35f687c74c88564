import Logging
import Synchronization

/// Keeps every logged message and its metadata, for tests of what is logged.
public final class LogRecorder: Sendable {
    private let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    public init() {}

    public var messages: [String] { entries.withLock { $0.map(\.message) } }
    public var metadata: [Logger.Metadata] { entries.withLock { $0.map(\.metadata) } }

    /// A logger whose every message, at every level, is kept here.
    public var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.entries.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
        }
    }
}
