import CBrotli
import MicroHTTP

/// A body that its `Content-Encoding` does not describe.
public struct UndecodableBody: Error, CustomStringConvertible {
    public let coding: String
    public var description: String { "the body is not valid \(coding)" }
}

extension TestResponse {
    /// The body with its `Content-Encoding` (gzip or br) undone, decoded by
    /// zlib and libbrotli; as it is without one.
    public func decodedBody() throws -> [UInt8] {
        switch headers["Content-Encoding"] {
        case nil, "identity": body
        case "gzip": try Self.gunzip(body)
        case "br": try Self.unbrotli(body)
        case let other?: throw UndecodableBody(coding: other)
        }
    }

    private static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        do {
            return try Inflation.gunzip(bytes)
        } catch {
            throw UndecodableBody(coding: "gzip")
        }
    }

    private static func unbrotli(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw UndecodableBody(coding: "br")
        }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
        bytes.withUnsafeBufferPointer { input in
            var availableIn = input.count
            var nextIn = input.baseAddress
            while result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT {
                let produced = chunk.withUnsafeMutableBufferPointer { buffer in
                    var availableOut = buffer.count
                    var nextOut = buffer.baseAddress
                    result = BrotliDecoderDecompressStream(decoder, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return buffer.count - availableOut
                }
                output += chunk[0..<produced]
            }
            if availableIn != 0 {
                result = BROTLI_DECODER_RESULT_ERROR
            }
        }
        guard result == BROTLI_DECODER_RESULT_SUCCESS else {
            throw UndecodableBody(coding: "br")
        }
        return output
    }
}
