import Glibc
@testable import webtableview
import Testing

@Suite(.timeLimit(.minutes(1))) struct SignalWaiterTests {
    @Test func aBlockedTerminationSignalIsWaitedFor() {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        SignalWaiter.blockTerminationSignals()
        var blocked = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &blocked)
        #expect(sigismember(&blocked, SIGTERM) == 1)
        #expect(sigismember(&blocked, SIGINT) == 1)
        #expect(sigismember(&blocked, SIGPIPE) == 1)
        // A signal sent to this thread stays pending until waited for.
        pthread_kill(pthread_self(), SIGTERM)
        #expect(SignalWaiter.wait() == SIGTERM)
    }
}
