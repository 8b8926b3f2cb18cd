import Foundation

/// A rectangle of pixels: size, layout and the memory that holds them.
///
/// Rows run top to bottom, each `bytesPerRow` long; only the first
/// `width * pixelFormat.bytesPerPixel` bytes of a row are pixels. A bitmap is an
/// immutable value once built and may be shared across threads freely.
///
/// ```swift
/// let bitmap = try ImageBitmap(width: 2, height: 1, pixelFormat: .rgba8) { bytes, rowBytes in
///     bytes.copyBytes(from: [255, 0, 0, 255, 0, 0, 255, 255])
/// }
/// ```
public struct ImageBitmap: Sendable {
    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The memory holding the rows.
    public let storage: PixelStorage

    /// Wraps storage that already holds the pixels.
    ///
    /// - Precondition: the storage holds at least `bytesPerRow * height` bytes and
    ///   `bytesPerRow >= width * pixelFormat.bytesPerPixel`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int, storage: PixelStorage) {
        precondition(width >= 0 && height >= 0, "negative size")
        precondition(bytesPerRow >= width * pixelFormat.bytesPerPixel, "row too short")
        precondition(storage.byteCount >= bytesPerRow * height, "storage too small")
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = bytesPerRow
        self.storage = storage
    }

    /// Allocates a tightly packed bitmap and lets `fill` write its bytes.
    ///
    /// `fill` receives the whole buffer and the row stride. This is how a decoder of
    /// your own builds its output.
    ///
    /// - Throws: ``ImageDecodingError/Code/outOfMemory`` when the buffer cannot be had,
    ///   or whatever `fill` throws.
    public init(
        width: Int,
        height: Int,
        pixelFormat: PixelFormat,
        fill: (UnsafeMutableRawBufferPointer, _ bytesPerRow: Int) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) {
        try self.init(width: width, height: height, pixelFormat: pixelFormat, allocation: .still, fill: fill)
    }

    /// Allocates a tightly packed bitmap as `allocation` says, and lets `fill` write its
    /// bytes.
    package init(
        width: Int,
        height: Int,
        pixelFormat: PixelFormat,
        allocation: PixelAllocation,
        fill: (UnsafeMutableRawBufferPointer, _ bytesPerRow: Int) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) {
        let storage = try PixelStorage.packed(width: width, height: height, pixelFormat: pixelFormat, allocation: allocation)
        let rowBytes = width * pixelFormat.bytesPerPixel
        try storage.withUnsafeMutableBytes { (bytes) throws(ImageDecodingError) in try fill(bytes, rowBytes) }
        self.init(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: rowBytes, storage: storage)
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of pixels in one row, without padding.
    public var packedRowBytes: Int { width * pixelFormat.bytesPerPixel }

    /// Calls `body` with the whole pixel buffer, read-only.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeBytes { (all) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[0..<(bytesPerRow * height)]))
        }
    }

    /// The pixels as a packed byte array (rows without padding), for tests and tools.
    public var packedBytes: [UInt8] {
        withUnsafeBytes { bytes in
            var out = [UInt8]()
            out.reserveCapacity(packedRowBytes * height)
            for y in 0..<height {
                let start = y * bytesPerRow
                out.append(contentsOf: bytes[start..<(start + packedRowBytes)])
            }
            return out
        }
    }

    /// A copy in fresh, tightly packed storage.
    ///
    /// - Throws: ``ImageDecodingError/Code/outOfMemory``.
    public func copy() throws(ImageDecodingError) -> ImageBitmap {
        try copy(allocation: .still)
    }

    /// A copy in fresh, tightly packed storage allocated as `allocation` says (an
    /// animation's frames are not prefaulted, and long animations map each frame).
    package func copy(allocation: PixelAllocation) throws(ImageDecodingError) -> ImageBitmap {
        let storage = try PixelStorage.packed(width: width, height: height, pixelFormat: pixelFormat, allocation: allocation)
        let stride = packedRowBytes
        withUnsafeBytes { source in
            storage.withUnsafeMutableBytes { dest in
                for y in 0..<height {
                    let from = UnsafeRawBufferPointer(rebasing: source[(y * bytesPerRow)..<(y * bytesPerRow + stride)])
                    UnsafeMutableRawBufferPointer(rebasing: dest[(y * stride)..<((y + 1) * stride)]).copyMemory(from: from)
                }
            }
        }
        return ImageBitmap(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: stride, storage: storage)
    }
}

extension ImageBitmap: Equatable {
    /// Two bitmaps are equal when they have the same size, format and pixels; row
    /// padding is ignored.
    public static func == (lhs: ImageBitmap, rhs: ImageBitmap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.pixelFormat == rhs.pixelFormat else { return false }
        if lhs.storage === rhs.storage && lhs.bytesPerRow == rhs.bytesPerRow { return true }
        let rowBytes = lhs.packedRowBytes
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                for y in 0..<lhs.height {
                    guard memcmp(a.baseAddress! + y * lhs.bytesPerRow, b.baseAddress! + y * rhs.bytesPerRow, rowBytes) == 0
                    else { return false }
                }
                return true
            }
        }
    }
}

extension PixelStorage {
    /// Storage for a packed `width` x `height` bitmap, with overflow and allocation
    /// failure as errors rather than traps.
    ///
    /// `allocation` says where the block comes from and whether its pages are mapped at
    /// once (a still's are, by default; see `PixelAllocation`).
    package static func packed(
        width: Int, height: Int, pixelFormat: PixelFormat, allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) -> PixelStorage {
        guard width >= 0, height >= 0 else {
            throw ImageDecodingError(.invalidDimensions, "a bitmap cannot be \(width)x\(height)")
        }
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        let (total, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o1, !o2 else {
            throw ImageDecodingError(.tooLarge, "a \(width)x\(height) bitmap does not fit in memory")
        }
        guard
            let storage = PixelStorage(
                uninitializedByteCount: total, mappedOnItsOwn: allocation.mappedOnItsOwn, prefaulted: allocation.prefaulted)
        else {
            throw ImageDecodingError(.outOfMemory, "could not allocate \(total) bytes for a \(width)x\(height) bitmap")
        }
        return storage
    }
}
