import Foundation

/// Ctrl-C, seen every time.
///
/// A `DispatchSource` for SIGINT is not enough on Linux: libdispatch reads the
/// signal through a signalfd, which only sees a signal that every thread
/// blocks, and threads started before the source (the concurrency pool's,
/// URLSession's) do not. The kernel then hands SIGINT to one of those, where it
/// is ignored, and the program never stops. So the signal gets a plain handler,
/// which any thread may run: it writes one byte to a pipe (`write` is safe in a
/// signal handler), and a thread of our own reads that pipe and runs the action.
enum Interrupt {
    /// Runs `action` once, on a thread of its own, when the first SIGINT arrives.
    static func onFirst(_ action: @escaping @Sendable () -> Void) {
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
    }
}

/// The pipe's write end, for the handler, which can capture nothing: set once,
/// before the handler is installed, and only read afterwards.
nonisolated(unsafe) private var interruptWriteEnd: Int32 = -1
