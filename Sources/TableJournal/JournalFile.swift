import Glibc

/// Thin wrappers over the POSIX calls the journal needs: append, flush, truncate,
/// read whole files, list, rename and remove, and flush a directory entry.
///
/// Every failure is a `JournalError` of kind `.io` naming the path and `errno`'s text.
/// Every call that a signal can interrupt goes through ``retryingInterrupts(_:)``.
struct JournalFile: Sendable {
    let descriptor: Int32
    let path: String

    /// Creates `path`, which must not exist, for appending.
    static func create(_ path: String) throws(JournalError) -> JournalFile {
        let descriptor = retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw failure("cannot create", path) }
        return JournalFile(descriptor: descriptor, path: path)
    }

    /// Opens an existing `path` for writing (to truncate it).
    static func openForWriting(_ path: String) throws(JournalError) -> JournalFile {
        let descriptor = retryingInterrupts { open(path, O_WRONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        return JournalFile(descriptor: descriptor, path: path)
    }

    /// Writes all of `bytes` at the end of the file.
    func write(_ bytes: [UInt8]) throws(JournalError) {
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Self.retryingInterrupts {
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written < 0 { return true }
                offset += written
            }
            return false
        }
        if failed { throw Self.failure("cannot write", path) }
    }

    /// Waits until the file's data (and its size) are on the disk.
    func sync() throws(JournalError) {
        guard Self.retryingInterrupts({ fdatasync(descriptor) }) == 0 else { throw Self.failure("cannot flush", path) }
    }

    func truncate(to size: Int) throws(JournalError) {
        guard Self.retryingInterrupts({ ftruncate(descriptor, off_t(size)) }) == 0 else {
            throw Self.failure("cannot truncate", path)
        }
    }

    /// Closes the descriptor. Never retried: Linux releases the descriptor even
    /// when `close` reports `EINTR`, and a retry could close one opened since.
    func close() {
        _ = Glibc.close(descriptor)
    }

    /// The whole content of `path`.
    static func read(_ path: String) throws(JournalError) -> [UInt8] {
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard retryingInterrupts({ fstat(descriptor, &status) }) == 0 else { throw failure("cannot stat", path) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.count
        let read = bytes.withUnsafeMutableBytes { buffer -> Int in
            var offset = 0
            while offset < count {
                let got = retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress! + offset, count - offset) }
                if got <= 0 { return got < 0 ? -1 : offset }
                offset += got
            }
            return offset
        }
        guard read >= 0 else { throw failure("cannot read", path) }
        return Array(bytes[..<read])
    }

    /// The names in `directory`, without `.` and `..`.
    static func names(in directory: String) throws(JournalError) -> [String] {
        guard let stream = retryingInterrupts({ opendir(directory) }) else { throw failure("cannot list", directory) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `directory` and any missing parent.
    static func makeDirectory(_ directory: String) throws(JournalError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if retryingInterrupts({ mkdir(path, 0o755) }) != 0 && errno != EEXIST {
                throw failure("cannot create", path)
            }
        }
    }

    /// Flushes `directory`'s entries, so a created, renamed or removed file stays so after a crash.
    static func syncDirectory(_ directory: String) throws(JournalError) {
        let descriptor = retryingInterrupts { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("cannot open", directory) }
        defer { _ = Glibc.close(descriptor) }
        guard retryingInterrupts({ fsync(descriptor) }) == 0 else { throw failure("cannot flush", directory) }
    }

    static func rename(_ from: String, to: String) throws(JournalError) {
        guard retryingInterrupts({ Glibc.rename(from, to) }) == 0 else { throw failure("cannot rename", from) }
    }

    static func remove(_ path: String) throws(JournalError) {
        guard retryingInterrupts({ unlink(path) }) == 0 || errno == ENOENT else { throw failure("cannot remove", path) }
    }

    /// Takes an exclusive lock on `path` (created when missing), held until the
    /// returned file is closed or the process ends, however it ends.
    static func lock(_ path: String) throws(JournalError) -> JournalFile {
        let descriptor = retryingInterrupts { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        guard retryingInterrupts({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let busy = errno == EWOULDBLOCK
            _ = Glibc.close(descriptor)
            if busy { throw JournalError(.inUse, "\(path) is locked: another server uses this journal") }
            throw failure("cannot lock", path)
        }
        return JournalFile(descriptor: descriptor, path: path)
    }

    /// Runs a system call again for as long as a signal interrupts it (-1 with
    /// `EINTR`), as swift-nio's `syscall(blocking:)` does; answers its result,
    /// with `errno` still set when that is -1.
    @inline(__always)
    static func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// ``retryingInterrupts(_:)`` for a call that fails with nil (`opendir`).
    @inline(__always)
    static func retryingInterrupts<Pointer>(_ call: () -> Pointer?) -> Pointer? {
        while true {
            if let result = call() { return result }
            if errno != EINTR { return nil }
        }
    }

    private static func failure(_ action: String, _ path: String) -> JournalError {
        JournalError(.io, "\(action) \(path): \(String(cString: strerror(errno)))")
    }
}
