import Testing

@testable import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Pixel storage")
struct PixelStorageTests {
    @Test("storage holds the bytes asked for and frees them without fuss, from 0 bytes up")
    func sizes() throws {
        for byteCount in [0, 1, 4_095, 64 << 10, 256 << 10, 5 << 20] {
            let storage = try #require(PixelStorage(uninitializedByteCount: byteCount))
            #expect(storage.byteCount == byteCount)
            storage.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                memset(base, 0x5A, bytes.count)
            }
            #expect(storage.withUnsafeBytes { $0.allSatisfy { $0 == 0x5A } })
        }
    }

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

        @Test("a still's block of 64 KiB or more has its pages mapped at birth, before the decoder writes them")
        func prefaulted() throws {
            guard Self.kernelPrefaults else {
                print("skipped: this kernel has no MADV_POPULATE_WRITE (Linux 5.14 and later)")
                return
            }
            // Odd sizes well above malloc's mapping threshold, so the block is likely new
            // memory rather than pages an earlier test touched.
            for (width, height) in [(1_001, 787), (256, 256)] {
                let storage = try PixelStorage.packed(width: width, height: height, pixelFormat: .rgba8)
                let pages = Self.residentPages(of: storage)
                #expect(pages.total > 0)
                #expect(pages.resident == pages.total, "\(width)x\(height): \(pages.resident) of \(pages.total) pages mapped")
            }
        }

        @Test("an animation frame's own mapping is not prefaulted: its pages come as they are written")
        func framesAreNotPrefaulted() throws {
            guard Self.kernelPrefaults else {
                print("skipped: this kernel has no MADV_POPULATE_WRITE (Linux 5.14 and later)")
                return
            }
            // Prefaulting frames let 64 loads of a 1000-frame GIF under a 256 MiB budget
            // peak at up to 1.47x the budget against 1.03-1.04x (see `PixelStorage`).
            let size = PixelSize(width: 512, height: 512)
            let frames = PixelAllocation.animationFrames(of: size, count: 40, pixelFormat: .rgba8)
            let frame = try PixelStorage.packed(width: size.width, height: size.height, pixelFormat: .rgba8, allocation: frames)
            #expect(frame.isMappedOnItsOwn)
            let pages = Self.residentPages(of: frame)
            #expect(pages.total > 0)
            #expect(pages.resident == 0, "\(pages.resident) of \(pages.total) pages mapped")
        }
    #endif

    @Test("an animation's frames are mapped on their own past 32 MiB of frames, and never prefaulted")
    func animationFrameAllocation() {
        let frame = PixelSize(width: 512, height: 512)  // 1 MiB in RGBA
        let short = PixelAllocation.animationFrames(of: frame, count: 32, pixelFormat: .rgba8)
        let long = PixelAllocation.animationFrames(of: frame, count: 33, pixelFormat: .rgba8)
        let longInGray = PixelAllocation.animationFrames(of: frame, count: 33, pixelFormat: .gray8)
        #expect(short == PixelAllocation(mappedOnItsOwn: false, prefaulted: false))
        #expect(long == PixelAllocation(mappedOnItsOwn: true, prefaulted: false))
        #expect(!longInGray.mappedOnItsOwn, "33 frames of 256 KiB are 8.25 MiB")
        #expect(PixelAllocation.animationFrames(of: frame, count: .max, pixelFormat: .rgba8).mappedOnItsOwn)
        #expect(PixelAllocation.still == PixelAllocation(mappedOnItsOwn: false, prefaulted: true))
    }
}
