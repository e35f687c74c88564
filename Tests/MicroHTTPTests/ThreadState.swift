import Glibc

/// What the kernel says of one thread of this process (`/proc/self/task/ID/stat`).
struct ThreadState {
    /// The thread's name (libmicrohttpd names its workers `MHD-worker`).
    var name: Substring
    /// `R` running or runnable, `S` asleep until something wakes it, `D`, … (proc(5)).
    var state: Character

    /// The thread `id` now; nil once it has ended.
    init?(_ id: pid_t) {
        guard let stat = Self.contents("/proc/self/task/\(id)/stat"),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
            let state = stat[stat.index(after: close)...].first(where: { $0 != " " })
        else { return nil }
        name = stat[stat.index(after: open)..<close]
        self.state = state
    }

    /// The id of the calling thread (`/proc/thread-self` links to `PID/task/ID`).
    static func current() -> pid_t {
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)
        let path = String(decoding: link.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return pid_t(path.split(separator: "/").last ?? "") ?? -1
    }

    private static func contents(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let count = read(descriptor, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// How many of `samples` looks, 2 ms apart, found each of `threads` asleep.
    static func asleepCounts(_ threads: Set<pid_t>, samples: Int) -> [pid_t: Int] {
        var asleep: [pid_t: Int] = [:]
        for _ in 0..<samples {
            for thread in threads where ThreadState(thread)?.state == "S" {
                asleep[thread, default: 0] += 1
            }
            usleep(2_000)
        }
        return asleep
    }
}
