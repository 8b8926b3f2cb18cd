import Testing
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Pixel storage")
struct PixelStorageTests {
    #if os(Linux)
        /// Whether the kernel prefaults on request (`MADV_POPULATE_WRITE`, Linux 5.14).
        static var kernelPrefaults: Bool {
            let length = 4096
            guard let scratch = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                scratch != MAP_FAILED
            else { return false }
            defer { munmap(scratch, length) }
            return madvise(scratch, length, MADV_POPULATE_WRITE) == 0
        }

        /// How many of the whole pages inside `storage` are mapped (`mincore`), and of how many.
        static func residentPages(of storage: PixelStorage) -> (resident: Int, total: Int) {
            let page = sysconf(Int32(_SC_PAGESIZE))
            return storage.withUnsafeBytes { bytes in
                let base = Int(bitPattern: bytes.baseAddress)
                let start = (base + page - 1) / page * page
                let end = (base + bytes.count) / page * page
                var vector = [UInt8](repeating: 0, count: (end - start) / page)
                guard mincore(UnsafeMutableRawPointer(bitPattern: start), end - start, &vector) == 0 else { return (0, vector.count) }
                return (vector.filter { $0 & 1 != 0 }.count, vector.count)
            }
        }

        @Test("a block of 64 KiB or more has its pages mapped at birth, before the decoder writes them")
        func prefaulted() throws {
            guard Self.kernelPrefaults else {
                print("skipped: this kernel has no MADV_POPULATE_WRITE (Linux 5.14 and later)")
                return
            }
            // An odd size well above malloc's mapping threshold, so the block is likely
            // new memory rather than pages an earlier test touched.
            for byteCount in [3 << 20 | 4_000, 256 << 10] {
                let storage = try #require(PixelStorage(uninitializedByteCount: byteCount))
                let pages = Self.residentPages(of: storage)
                #expect(pages.total > 0)
                #expect(pages.resident == pages.total, "\(byteCount) bytes: \(pages.resident) of \(pages.total) pages mapped")
            }
        }
    #endif
}
