import Foundation
import Hummingbird
import Logging
import NIOCore

// A minimal Hummingbird 2 server answering the JSON-row route with fixed
// bytes, the same bytes and header fields WebTableView answers.
//
// Usage: HummingbirdRow BODY_FILE CONTENT_TYPE ETAG
// Prints "listening on http://127.0.0.1:PORT"; stops on SIGINT or SIGTERM.

let arguments = CommandLine.arguments
guard arguments.count == 4, let body = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: HummingbirdRow BODY_FILE CONTENT_TYPE ETAG\n".utf8))
    exit(2)
}
let buffer = ByteBuffer(bytes: body)
let headers: HTTPFields = [.contentType: arguments[2], .eTag: arguments[3]]

let router = Router()
router.get("/api/tables/:t/sections/:s/rows/:r") { _, _ in
    Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
}

var logger = Logger(label: "HummingbirdRow")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        let port = channel.localAddress?.port ?? 0
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
    },
    logger: logger
)
try await app.runService()
