import Foundation
import Synchronization
import WebTableViewClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession underneath, but each piece of an event stream may be the last:
/// with probability `cutChance` the stream hands on a random part of it and
/// then fails as a lost connection, and the real connection is cancelled —
/// a cut at a random moment, often in the middle of an event.
final class CuttingTransport: HTTPTransport, EventStreamTransport {
    let base = URLSessionTransport()
    let cutChance: Double
    let cuts = Mutex(0)

    init(cutChance: Double) { self.cutChance = cutChance }

    func send(_ request: URLRequest) async throws -> HTTPAnswer { try await base.send(request) }

    func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error> {
        let upstream = base.stream(request)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await piece in upstream {
                        if Double.random(in: 0..<1) < self.cutChance {
                            continuation.yield(Array(piece[..<Int.random(in: 0...piece.count)]))
                            self.cuts.withLock { $0 += 1 }
                            continuation.finish(throwing: URLError(.networkConnectionLost))
                            return
                        }
                        continuation.yield(piece)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
