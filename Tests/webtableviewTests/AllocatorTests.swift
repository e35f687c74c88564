import CAllocator
import Glibc
import Testing

/// `CAllocator`, the one way to the allocator behind `malloc` (its heap in use
/// is checked through `/metrics` in MetricsTests).
@Suite struct AllocatorTests {
    /// Resident bytes of this process (`/proc/self/statm`).
    static func residentBytes() throws -> Int {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        let fields = buffer.prefix(max(count, 0)).split(separator: UInt8(ascii: " "))
        let pages = try #require(Int(String(decoding: fields[1], as: UTF8.self)))
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// True when a sanitizer's allocator replaced glibc's in this test binary.
    static let sanitized = dlsym(nil, "__sanitizer_get_current_allocated_bytes") != nil

    @Test func freeHeapGoesBackToTheSystem() throws {
        // 64 MiB in 1 KiB blocks, every 64th kept: the free runs between the
        // kept blocks are whole pages that glibc keeps resident on its own.
        let blocks = (0..<65_536).map { _ -> UnsafeMutableRawPointer in
            let block = malloc(1024)!
            memset(block, 1, 1024)
            return block
        }
        for (index, block) in blocks.enumerated() where index % 64 != 0 { free(block) }
        defer { for (index, block) in blocks.enumerated() where index % 64 == 0 { free(block) } }

        let before = try Self.residentBytes()
        let released = wtv_release_free_heap()
        let after = try Self.residentBytes()
        if Self.sanitized {
            #expect(released == -1)
        } else {
            #expect(released == 1)
            #expect(before - after >= 32 << 20, "resident \(before) → \(after) bytes")
        }
    }
}
