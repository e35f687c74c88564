import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import TableServer

/// `EventDelivery`: the first change after a quiet moment goes out at once; the
/// ones queued while a delivery is recent wait for the next, and are then handed
/// to each stream together, in order, with actions after what preceded them.
@Suite(.timeLimit(.minutes(1))) struct EventDeliveryPacingTests {
    func text(_ stream: EventStream) -> String { String(decoding: stream.takeQueuedBytes(), as: UTF8.self) }

    /// The stream's bytes once `expected` has arrived (or after 10 s, to fail).
    func collect(_ stream: EventStream, until expected: String) -> String {
        var received = ""
        for _ in 0..<10_000 where received != expected {
            received += text(stream)
            if received != expected { usleep(1_000) }
        }
        return received
    }

    @Test func changesMadeWhileADeliveryIsRecentWaitForTheNextAndComeTogetherInOrder() {
        // A pause no test waits out: only `flush` delivers what waits.
        let delivery = EventDelivery(pausePerStream: .seconds(3_600), longestPause: .seconds(3_600))
        let first = EventStream(), second = EventStream()
        delivery.deliver([Array("a".utf8)], to: [first])
        #expect(collect(first, until: "a") == "a")

        delivery.deliver([Array("b".utf8)], to: [first])
        delivery.deliver([Array("c".utf8), Array("d".utf8)], to: [first])
        delivery.deliver([Array("e".utf8)], to: [first, second])
        let order = Mutex<[String]>([])
        delivery.afterDeliveries { order.withLock { $0.append("action after e") } }
        delivery.deliver([Array("f".utf8)], to: [second])
        #expect(text(first).isEmpty)
        #expect(text(second).isEmpty)
        #expect(order.withLock { $0 }.isEmpty)

        delivery.flush()
        #expect(text(first) == "bcde")
        #expect(text(second) == "ef")
        #expect(order.withLock { $0 } == ["action after e"])
    }

    @Test func nothingIsQueuedForNoStreamOrNoEvent() {
        let delivery = EventDelivery(pausePerStream: .seconds(3_600), longestPause: .seconds(3_600))
        let stream = EventStream()
        delivery.deliver([], to: [stream])
        delivery.deliver([Array("x".utf8)], to: [])
        delivery.flush()
        #expect(text(stream).isEmpty)
    }
}
