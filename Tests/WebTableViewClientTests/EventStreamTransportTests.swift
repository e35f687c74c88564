import Foundation
import Synchronization
import Testing
import WebTableViewClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct EventStreamTransportTests {
    /// `timeoutInterval` bounds the silence, not the stream: a stream that
    /// receives an event every 50 ms outlives it three times over, then ends as
    /// timed out once the events stop. (The limit is 5 s: with the whole suite
    /// running beside it on two cores, a delivery thread was seen starved for
    /// over 2 s, which a shorter limit takes for silence.)
    @Test func theTimeoutIsTheLongestSilenceNotTheLongestStream() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let client = TableClient(baseURL: url)
        var request = URLRequest(url: url.appendingPathComponent("api/tables/t/events"))
        request.timeoutInterval = 5
        let pieces = Mutex(0)
        let ended = Mutex<ContinuousClock.Instant?>(nil)
        let reading = Task {
            defer { ended.withLock { $0 = .now } }
            do {
                for try await _ in URLSessionTransport().stream(request) { pieces.withLock { $0 += 1 } }
                return "ended"
            } catch let error as URLError {
                return error.code == .timedOut ? "timed out" : "\(error.code)"
            }
        }
        #expect(try await waitFor(seconds: 60) { pieces.withLock { $0 } > 0 })
        let start = ContinuousClock.now
        var edits = 0
        while ContinuousClock.now - start < .seconds(15) {
            _ = try await client.setSwitch(edits.isMultiple(of: 2), item: "wifi", in: "t")
            edits += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        let lastEdit = ContinuousClock.now
        #expect(ended.withLock { $0 } == nil, "the stream ended while events came")
        #expect(try await reading.value == "timed out")
        #expect(pieces.withLock { $0 } > 1)
        #expect((ended.withLock { $0 } ?? lastEdit) >= lastEdit)
    }
}
