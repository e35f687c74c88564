/// A libmicrohttpd connection pointer, passed between threads only under the
/// locks that guard its use (suspend and resume).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
