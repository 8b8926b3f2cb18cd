import Foundation

/// The memory behind an ``ImageBitmap``: one contiguous, uninitialised-at-birth block
/// that is freed when the last bitmap using it goes away.
///
/// Large blocks (4 MiB and up) are aligned to 2 MiB and marked with
/// `madvise(MADV_HUGEPAGE)` on Linux: first touching a fresh 48 MB buffer costs about
/// 25 ms of page faults with 4 KiB pages and a few with transparent huge pages, which is
/// a large part of decoding a photo.
///
/// Smaller blocks from 64 KiB that the caller will write whole (a still image's
/// pixels) can be prefaulted: their pages are mapped in one system call rather than
/// one page fault per 4 KiB as the decoder first writes them, which takes about a
/// tenth off decoding a 256x256 JPEG into fresh memory. Animation frames are not
/// prefaulted: 64 loads of a 1000-frame GIF under a 256 MiB memory budget then peaked
/// at 1.04-1.47x the budget in ten runs, against 1.03-1.04x.
///
/// Frames of animations can ask for a mapping of their own (`mmap`), so that freeing
/// an animation gives its memory back to the system at once. From `malloc`, a thousand
/// freed frames stay in the arena of the thread that decoded them, and the next
/// decode, on another worker thread, takes new memory: 64 loads of a 1000-frame GIF
/// under a 256 MiB memory budget peaked at 1.74x the budget from `malloc`, 1.03-1.05x
/// mapped. Animations of 32 MiB of frames or less still come from `malloc`
/// (`mallocBytesPerAnimation`).
///
/// Thread contract: a storage is written only while its bitmap is being built, by the
/// one decoder that owns it, and is immutable once an ``ImageBitmap`` is handed out;
/// reading it from any thread is then safe.
public final class PixelStorage: @unchecked Sendable {
    /// Number of bytes in the block.
    public let byteCount: Int
    @usableFromInline let base: UnsafeMutableRawPointer
    /// Bytes mapped with `mmap`, or 0 when the block came from `malloc`.
    private let mappedLength: Int

    /// Whether the block is a mapping of its own, given back to the system when the
    /// storage goes away (see the type's discussion).
    public var isMappedOnItsOwn: Bool { mappedLength > 0 }

    /// Blocks at least this large get huge-page treatment.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20
    /// Smaller blocks come from `malloc` even when a mapping of their own is asked for:
    /// a mapping costs a page at least, and a system call each way.
    static let ownMappingThreshold = 64 << 10

    /// Allocates `byteCount` uninitialised bytes, or returns `nil` when the system has
    /// no memory for them. Never traps on a failed allocation.
    public convenience init?(uninitializedByteCount byteCount: Int) {
        self.init(uninitializedByteCount: byteCount, mappedOnItsOwn: false)
    }

    /// Allocates `byteCount` uninitialised bytes; with `mappedOnItsOwn` (on Linux, for
    /// blocks from 64 KiB to the huge-page threshold), in a mapping of their own that is
    /// unmapped when the storage goes away, rather than from `malloc`'s arenas. With
    /// `prefaulted`, a block from 64 KiB to the huge-page threshold has its pages mapped
    /// at once: only for callers that write every byte.
    package init?(uninitializedByteCount byteCount: Int, mappedOnItsOwn: Bool, prefaulted: Bool = false) {
        precondition(byteCount >= 0, "negative byte count")
        let size = Swift.max(byteCount, 1)
        guard let (pointer, mappedLength) = PixelStorage.allocate(size, mapped: mappedOnItsOwn) else { return nil }
        #if os(Linux)
            if prefaulted { PixelStorage.prefault(pointer, size) }
        #endif
        self.byteCount = byteCount
        self.base = pointer
        self.mappedLength = mappedLength
    }

    /// Allocates `byteCount` bytes set to zero, or returns `nil` when out of memory.
    public convenience init?(zeroedByteCount byteCount: Int) {
        self.init(uninitializedByteCount: byteCount)
        memset(base, 0, byteCount)
    }

    deinit {
        #if os(Linux)
            if mappedLength > 0 {
                munmap(base, mappedLength)
                return
            }
        #endif
        free(base)
    }

    private static func allocate(_ size: Int, mapped: Bool) -> (UnsafeMutableRawPointer, mappedLength: Int)? {
        #if os(Linux)
            if size >= hugePageThreshold {
                let rounded = (size + hugePageSize - 1) / hugePageSize * hugePageSize
                var pointer: UnsafeMutableRawPointer?
                guard posix_memalign(&pointer, hugePageSize, rounded) == 0, let pointer else { return nil }
                _ = madvise(pointer, rounded, MADV_HUGEPAGE)
                return (pointer, 0)
            }
            if mapped, size >= ownMappingThreshold {
                let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                if let pointer, pointer != MAP_FAILED { return (pointer, size) }
            }
        #endif
        return malloc(size).map { ($0, 0) }
    }

    #if os(Linux)
        /// Blocks at least this large, and below the huge-page threshold, are prefaulted
        /// when asked.
        static let prefaultThreshold = 64 << 10
        private static let pageSize = Swift.max(4096, sysconf(Int32(_SC_PAGESIZE)))

        /// Maps the block's pages in one call (`MADV_POPULATE_WRITE`, Linux 5.14 and
        /// later; elsewhere the call fails and nothing changes) instead of one page fault
        /// per 4 KiB as the decoder first writes them: a fresh 256 KiB block took 64
        /// faults, about 90 µs on a 2-core VM, and takes about 45 µs this way. A block
        /// `malloc` reuses is already mapped, and the call then costs about 3 µs.
        private static func prefault(_ pointer: UnsafeMutableRawPointer, _ size: Int) {
            guard size >= prefaultThreshold, size < hugePageThreshold else { return }
            let page = pageSize
            let start = (Int(bitPattern: pointer) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: pointer) + size) & ~(page - 1)
            guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(first, end - start, MADV_POPULATE_WRITE)
        }
    #endif

    /// An animation whose frames come to more than this gets storage mapped on its own
    /// for every frame. Smaller animations come from `malloc`, whose reuse of freed
    /// memory keeps their decode free of page faults (mapping every frame made the
    /// 30-frame 480x360 GIF benchmark 1.27x giflib instead of 0.98x). A large
    /// animation's first 32 MiB from `malloc` stayed in its worker thread's arena once
    /// freed: 64 loads of a 1000-frame GIF under a 256 MiB budget then peaked at 1.13x
    /// the budget in about one run of twelve.
    package static let mallocBytesPerAnimation = 32 << 20

    /// Calls `body` with the bytes, read-only.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: byteCount))
    }

    /// Calls `body` with the bytes to fill them.
    ///
    /// Only the code building a bitmap may write: once a bitmap built on this storage
    /// has been shared, writing is a data race.
    @inlinable
    public func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: byteCount))
    }
}
