import CMicroHTTPD

/// What a streaming response's callbacks need: the stream and its server.
final class StreamBinding {
    let server: HTTPServer
    let stream: EventStream

    init(server: HTTPServer, stream: EventStream) {
        self.server = server
        self.stream = stream
    }
}

/// A chunk producer and the part of its last piece not yet written.
final class ChunkReader {
    let next: () -> [UInt8]?
    var pending: [UInt8] = []
    var offset = 0

    init(_ producer: ChunkProducer) {
        next = producer.makeNext()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while offset == pending.count {
            guard let piece = next() else {
                return WTV_READER_END_OF_STREAM
            }
            pending = piece
            offset = 0
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

let readStream: MHD_ContentReaderCallback = { binding, _, buffer, max in
    guard let binding, let buffer else {
        return WTV_READER_END_WITH_ERROR
    }
    return Unmanaged<StreamBinding>.fromOpaque(binding).takeUnretainedValue().stream.read(
        into: UnsafeMutableRawBufferPointer(start: buffer, count: max)
    )
}

let releaseStream: MHD_ContentReaderFreeCallback = { binding in
    guard let binding else {
        return
    }
    let released = Unmanaged<StreamBinding>.fromOpaque(binding).takeRetainedValue()
    released.server.unregister(released.stream)
}

let readChunks: MHD_ContentReaderCallback = { reader, _, buffer, max in
    guard let reader, let buffer else {
        return WTV_READER_END_WITH_ERROR
    }
    return Unmanaged<ChunkReader>.fromOpaque(reader).takeUnretainedValue().read(
        into: UnsafeMutableRawBufferPointer(start: buffer, count: max)
    )
}

let releaseChunks: MHD_ContentReaderFreeCallback = { reader in
    if let reader {
        Unmanaged<ChunkReader>.fromOpaque(reader).release()
    }
}
