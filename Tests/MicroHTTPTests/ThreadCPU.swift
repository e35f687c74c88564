import Glibc

/// CPU time of this process's libmicrohttpd worker threads (named
/// `MHD-worker`), read from /proc, in clock ticks per thread id.
enum ThreadCPU {
    static func workerTicks() -> [Int32: Int] {
        var ticks: [Int32: Int] = [:]
        guard let directory = opendir("/proc/self/task") else {
            return ticks
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let thread = Int32(name), let stat = contents("/proc/self/task/\(name)/stat"),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close].hasPrefix("MHD-worker")
            else {
                continue
            }
            // Fields after the command: state is field 3, utime 14, stime 15.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) {
                ticks[thread] = user + system
            }
        }
        return ticks
    }

    private static func contents(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            return nil
        }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let count = read(descriptor, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}
