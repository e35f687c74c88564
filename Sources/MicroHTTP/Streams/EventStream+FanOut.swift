import Glibc

/// One delivery's fan-out: a chunk handed to many streams, batched through
/// io_uring where the kernel allows it (docs/ARCHITECTURE.md, Concurrency).
extension EventStream {
    /// Hands `chunk` to each of `streams`, in order, as ``send(_:)-(EventChunk)``
    /// does, with the rings of `rings`, if it has any (``EventFanOut``).
    ///
    /// Where the kernel allows io_uring, the streams that can be written
    /// directly are written in batches (``SendRing``): each is claimed under
    /// its lock, the batch's sends go to the kernel in one system call, and each
    /// stream then takes its outcome under its lock as a `send()` of its own
    /// would have (docs/ARCHITECTURE.md, Concurrency: the direct write).
    static func send(_ chunk: EventChunk, to streams: [EventStream], rings: SendRings) {
        if streams.count > 1, !chunk.framed.isEmpty, let ring = rings.take() {
            let done = send(chunk, to: streams, batchedBy: ring)
            rings.giveBack(ring)
            if done < streams.count {
                send(chunk, to: Array(streams[done...]), rings: rings)
            }
            return
        }
        for stream in streams {
            stream.send(chunk)
        }
    }

    /// The batched fan-out of ``send(_:to:rings:)``; how many of `streams` it
    /// handled: all of them, unless the ring broke.
    static func send(_ chunk: EventChunk, to streams: [EventStream], batchedBy ring: some BatchSender) -> Int {
        var claimed: [EventStream] = []
        var sockets: [Int32] = []
        var results = [Int](repeating: 0, count: ring.capacity)
        claimed.reserveCapacity(ring.capacity)
        sockets.reserveCapacity(ring.capacity)
        var index = 0
        while index < streams.count, !ring.isBroken {
            claimed.removeAll(keepingCapacity: true)
            sockets.removeAll(keepingCapacity: true)
            while index < streams.count, claimed.count < ring.capacity {
                let stream = streams[index]
                if let socket = stream.claimOrQueue(chunk) {
                    claimed.append(stream)
                    sockets.append(socket)
                }
                index += 1
            }
            guard !claimed.isEmpty else {
                continue
            }
            ring.send(chunk.framed, to: sockets, results: &results)
            for (position, stream) in claimed.enumerated() {
                stream.finishClaim(results[position], of: chunk)
            }
        }
        return index
    }

    /// Claims the direct write of `chunk` for a batch and returns the socket;
    /// or, when the stream cannot be written directly, does what
    /// ``send(_:)-(EventChunk)`` does and returns nil.
    private func claimOrQueue(_ chunk: EventChunk) -> Int32? {
        var socket: Int32?
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else {
                return []
            }
            if state.canWriteDirectly {
                state.writing = true
                socket = state.socket
                return []
            }
            return state.enqueue(chunk.events, bufferLimit: bufferLimit).1
        }
        Self.runLater(actions)
        return socket
    }

    /// Takes the outcome of a claimed write, `result` being what `send()`
    /// returned for it, as ``send(_:framed:)`` takes its own: all written;
    /// a part written and the rest finished later; nothing written and the
    /// events queued for libmicrohttpd, which writes them when the socket
    /// takes more; the socket failed and the client dropped at once. An
    /// outcome the ring lost (`-EIO`) drops the client too, which may have
    /// been sent any part of the chunk.
    private func finishClaim(_ result: Int, of chunk: EventChunk) {
        var unfinished = false
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.writing = false
            if state.dropped {
                state.wake()
                return []
            }
            if result == -Int(EIO) {
                return state.dropClient()
            }
            switch DirectWrite(result: result, of: chunk.framed.count) {
            case .complete:
                state.written.batched += 1
            case .partial(let count):
                state.written.batched += 1
                state.keepUnfinished(chunk.framed[count...])
                unfinished = true
                return []
            case .wouldBlock:
                state.requeueFirst(chunk.events)
            case .failed:
                return state.dropClient()
            }
            if state.head < state.events.count || state.closed {
                state.wake()
            }
            return []
        }
        Self.runLater(actions)
        if unfinished {
            finishLater(after: DirectRetry.first)
        }
    }
}
