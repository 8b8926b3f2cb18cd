import Foundation

/// The memory behind an ``ImageBitmap``: one contiguous, uninitialised-at-birth block
/// that is freed when the last bitmap using it goes away.
///
/// Large blocks (4 MiB and up) are aligned to 2 MiB and marked with
/// `madvise(MADV_HUGEPAGE)` on Linux: first touching a fresh 48 MB buffer costs about
/// 25 ms of page faults with 4 KiB pages and a few with transparent huge pages, which is
/// a large part of decoding a photo.
///
/// Thread contract: a storage is written only while its bitmap is being built, by the
/// one decoder that owns it, and is immutable once an ``ImageBitmap`` is handed out;
/// reading it from any thread is then safe.
public final class PixelStorage: @unchecked Sendable {
    /// Number of bytes in the block.
    public let byteCount: Int
    @usableFromInline let base: UnsafeMutableRawPointer

    /// Blocks at least this large get huge-page treatment.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// Allocates `byteCount` uninitialised bytes, or returns `nil` when the system has
    /// no memory for them. Never traps on a failed allocation.
    public init?(uninitializedByteCount byteCount: Int) {
        precondition(byteCount >= 0, "negative byte count")
        let size = Swift.max(byteCount, 1)
        guard let pointer = PixelStorage.allocate(size) else { return nil }
        self.byteCount = byteCount
        self.base = pointer
    }

    /// Allocates `byteCount` bytes set to zero, or returns `nil` when out of memory.
    public convenience init?(zeroedByteCount byteCount: Int) {
        self.init(uninitializedByteCount: byteCount)
        memset(base, 0, byteCount)
    }

    deinit {
        free(base)
    }

    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
            if size >= hugePageThreshold {
                let rounded = (size + hugePageSize - 1) / hugePageSize * hugePageSize
                var pointer: UnsafeMutableRawPointer?
                guard posix_memalign(&pointer, hugePageSize, rounded) == 0, let pointer else { return nil }
                _ = madvise(pointer, rounded, MADV_HUGEPAGE)
                return pointer
            }
        #endif
        return malloc(size)
    }

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
