import CBrotli
import CZlib

/// A gzip (zlib) or br (libbrotli) encoder fed a piece at a time, so a body
/// sent in pieces is compressed as it is sent.
///
/// Not thread-safe: one answer, on its connection's thread.
final class Compressor {
    /// How hard to try: answers made per request take the fast settings,
    /// what is compressed once (static files) the smallest.
    enum Effort {
        /// gzip level 5, br quality 4 with a 256 KiB window: a few MB/s per
        /// core of CPU at most a few times what sending costs.
        case perRequest
        /// gzip level 9, br quality 6: done once at start-up. Quality 11 made
        /// the files 9 % smaller but start-up 27 → 140 ms (docs/perf-history/not-met-and-left-to-do.md).
        case once
    }

    private enum State {
        case gzip(UnsafeMutablePointer<z_stream>)
        case br(OpaquePointer)
    }

    private let state: State

    /// nil for `identity`, or when the library cannot allocate its state.
    init?(_ coding: ContentCoding, effort: Effort) {
        switch coding {
        case .identity:
            return nil
        case .gzip:
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard wtv_deflate_init_gzip(stream, effort == .once ? 9 : 5) == Z_OK else {
                stream.deallocate()
                return nil
            }
            state = .gzip(stream)
        case .br:
            guard let encoder = BrotliEncoderCreateInstance(nil, nil, nil) else {
                return nil
            }
            BrotliEncoderSetParameter(encoder, BROTLI_PARAM_QUALITY, effort == .once ? 6 : 4)
            BrotliEncoderSetParameter(encoder, BROTLI_PARAM_LGWIN, effort == .once ? 22 : 18)
            BrotliEncoderSetParameter(encoder, BROTLI_PARAM_MODE, UInt32(BROTLI_MODE_TEXT.rawValue))
            state = .br(encoder)
        }
    }

    deinit {
        switch state {
        case .gzip(let stream):
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        case .br(let encoder):
            BrotliEncoderDestroyInstance(encoder)
        }
    }

    /// What to do after taking a piece in.
    enum Step {
        /// Keep what the encoder holds back for a better ratio.
        case more
        /// Send everything taken in so far (the receiver can decode it now).
        case flush
        /// The body is over: send the rest and the coding's trailer.
        case finish
    }

    /// Takes `bytes` in and answers what the encoder gives out: often nothing
    /// for ``Step/more``.
    func compress(_ bytes: [UInt8], _ step: Step) -> [UInt8] {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { input in
            switch state {
            case .gzip(let stream):
                Self.deflate(stream, input, step, into: &output)
            case .br(let encoder):
                Self.brotli(encoder, input, step, into: &output)
            }
        }
        return output
    }

    /// `bytes` compressed whole, in one go.
    static func compress(_ bytes: [UInt8], _ coding: ContentCoding, effort: Effort) -> [UInt8]? {
        Compressor(coding, effort: effort)?.compress(bytes, .finish)
    }

    private static let outputStep = 16 * 1024

    private static func deflate(
        _ stream: UnsafeMutablePointer<z_stream>, _ input: UnsafeBufferPointer<UInt8>, _ step: Step,
        into output: inout [UInt8]
    ) {
        let flush: Int32 =
            switch step {
            case .more: Z_NO_FLUSH
            case .flush: Z_SYNC_FLUSH
            case .finish: Z_FINISH
            }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.pointee.avail_in = UInt32(input.count)
        var chunk = [UInt8](repeating: 0, count: outputStep)
        repeat {
            let produced = chunk.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                _ = CZlib.deflate(stream, flush)
                return buffer.count - Int(stream.pointee.avail_out)
            }
            output += chunk[0..<produced]
        } while stream.pointee.avail_out == 0
    }

    private static func brotli(
        _ encoder: OpaquePointer, _ input: UnsafeBufferPointer<UInt8>, _ step: Step, into output: inout [UInt8]
    ) {
        let operation =
            switch step {
            case .more: BROTLI_OPERATION_PROCESS
            case .flush: BROTLI_OPERATION_FLUSH
            case .finish: BROTLI_OPERATION_FINISH
            }
        var availableIn = input.count
        var nextIn = input.baseAddress
        var chunk = [UInt8](repeating: 0, count: outputStep)
        while true {
            let produced = chunk.withUnsafeMutableBufferPointer { buffer in
                var availableOut = buffer.count
                var nextOut = buffer.baseAddress
                _ = BrotliEncoderCompressStream(encoder, operation, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                return buffer.count - availableOut
            }
            output += chunk[0..<produced]
            let done =
                step == .finish
                ? BrotliEncoderIsFinished(encoder) != 0
                : availableIn == 0 && BrotliEncoderHasMoreOutput(encoder) == 0
            if done {
                return
            }
        }
    }
}
