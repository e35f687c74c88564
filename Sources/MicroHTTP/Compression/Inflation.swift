import CZlib

/// gzip undone by zlib, never past a limit: request bodies sent with
/// `Content-Encoding: gzip` (docs/API.md, "Compression"), and answers read
/// back by the tests.
public enum Inflation {
    /// Why a body could not be inflated.
    public enum Failure: Error, Equatable {
        /// It inflates to more than the limit; inflating stopped there.
        case tooLarge
        /// It is not one whole gzip stream.
        case malformed
    }

    /// `bytes`, one gzip stream, inflated; at most `limit` bytes are ever
    /// held, so a small body that inflates to gigabytes (a "zip bomb") costs
    /// `limit` bytes of memory and is refused as soon as it passes it.
    public static func gunzip(_ bytes: [UInt8], limit: Int = .max) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard wtv_inflate_init_gzip(&stream) == Z_OK else {
            throw .malformed
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result = Z_OK
        var input = bytes
        input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = UInt32(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    result = inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                output += chunk[0..<produced]
            } while result == Z_OK && output.count <= limit
        }
        guard output.count <= limit else {
            throw .tooLarge
        }
        guard result == Z_STREAM_END, stream.avail_in == 0 else {
            throw .malformed
        }
        return output
    }
}
