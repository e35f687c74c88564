import CAllocator
import Glibc

/// Figures about the whole process, read when asked: memory, CPU time and
/// file descriptors, under the names of Prometheus' standard process collector,
/// plus the heap the allocator has handed out and not had back.
///
/// Resident memory says what the process costs the machine; heap in use says
/// what it actually holds. The allocator keeps freed memory for reuse, so
/// resident memory rises in steps and rarely falls, while heap in use returns
/// to the same figure whenever the server returns to the same state — the
/// figure to watch for a leak.
public struct ProcessMetrics: Sendable, Equatable {
    /// Resident set size, in bytes.
    public var residentMemoryBytes: Int
    /// Virtual memory size, in bytes.
    public var virtualMemoryBytes: Int
    /// Bytes allocated with `malloc` (or a sanitizer's allocator) and not yet
    /// freed; nil where the allocator does not say.
    public var heapInUseBytes: Int?
    /// User and system CPU time, in seconds.
    public var cpuSeconds: Double
    /// File descriptors open now; nil where `/proc/self/fd` is not readable.
    public var openFileDescriptors: Int?
    /// The soft limit on open file descriptors.
    public var maxFileDescriptors: Int

    /// The process' figures now.
    public static func current() -> ProcessMetrics {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = statm()
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        var limit = rlimit()
        getrlimit(resourceLimit, &limit)
        return ProcessMetrics(
            residentMemoryBytes: pages.resident * pageSize,
            virtualMemoryBytes: pages.size * pageSize,
            heapInUseBytes: heapInUse(),
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            openFileDescriptors: countOpenFileDescriptors(),
            maxFileDescriptors: Int(clamping: limit.rlim_cur))
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        var text = """
            # HELP process_resident_memory_bytes Resident memory size in bytes.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes \(residentMemoryBytes)
            # HELP process_virtual_memory_bytes Virtual memory size in bytes.
            # TYPE process_virtual_memory_bytes gauge
            process_virtual_memory_bytes \(virtualMemoryBytes)
            # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
            # TYPE process_cpu_seconds_total counter
            process_cpu_seconds_total \(cpuSeconds)
            # HELP process_max_fds Maximum number of open file descriptors.
            # TYPE process_max_fds gauge
            process_max_fds \(maxFileDescriptors)

            """
        if let openFileDescriptors {
            text += """
                # HELP process_open_fds Number of open file descriptors.
                # TYPE process_open_fds gauge
                process_open_fds \(openFileDescriptors)

                """
        }
        if let heapInUseBytes {
            text += """
                # HELP process_heap_in_use_bytes Bytes allocated from the heap and not yet freed.
                # TYPE process_heap_in_use_bytes gauge
                process_heap_in_use_bytes \(heapInUseBytes)

                """
        }
        return text
    }

    private static let resourceLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    private static let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// Total and resident pages from `/proc/self/statm`; zeros where there is none.
    private static func statm() -> (size: Int, resident: Int) {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return (0, 0) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        let fields = buffer.prefix(max(count, 0)).split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let size = Int(String(decoding: fields[0], as: UTF8.self)),
            let resident = Int(String(decoding: fields[1], as: UTF8.self))
        else { return (0, 0) }
        return (size, resident)
    }

    private static func countOpenFileDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        // Only the name's first byte is read: an entry is `d_reclen` bytes,
        // often fewer than `dirent`'s, so copying its whole `d_name` can read
        // past the end of readdir's buffer (a crash with many descriptors open).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let isDot = UnsafeRawPointer(entry).load(fromByteOffset: nameOffset, as: UInt8.self) == UInt8(ascii: ".")
            if !isDot { count += 1 }
        }
        return count - 1  // the descriptor of the directory being read
    }

    /// Hands the allocator's free heap pages back to the system (glibc's
    /// `malloc_trim`): after a large structure is freed, so that resident
    /// memory falls with it rather than staying as free heap.
    public static func releaseFreeHeap() {
        _ = wtv_release_free_heap()
    }

    /// Heap in use as the allocator behind `malloc` reports it (glibc's, or a
    /// sanitizer's when one is linked in).
    private static func heapInUse() -> Int? {
        let bytes = wtv_heap_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }
}
