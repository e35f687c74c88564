import Foundation

/// Ctrl-C, seen every time, whoever started us.
///
/// A process inherits its parent's signal mask and ignored signals: started
/// from a libdispatch worker thread (which blocks nearly every signal, SIGINT
/// included: a test's `Process`, an app's), SIGINT stays pending forever, and
/// started in the background of a script it is ignored. A `DispatchSource`
/// does not mend either. So the main thread, which lives as long as the
/// process, unblocks SIGINT, and the signal gets a plain handler: it writes one
/// byte to a pipe (`write` is safe in a signal handler), and a thread of our
/// own reads that pipe and runs the action.
enum Interrupt {
    /// Runs `action` once, on a thread of its own, when the first SIGINT
    /// arrives. On the main actor: the main thread is the one that unblocks it.
    @MainActor static func onFirst(_ action: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
        interruptWriteEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            action()
        }
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(interruptWriteEnd, &byte, 1)
        }
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }
}

/// The pipe's write end, for the handler, which can capture nothing: set once,
/// before the handler is installed, and only read afterwards.
nonisolated(unsafe) private var interruptWriteEnd: Int32 = -1
