import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The logical screen frames are composed on: RGBA, straight alpha, starting fully
/// transparent (the background colour index is ignored, as browsers do).
///
/// Holds the one canvas plus, for a frame with disposal 3, a copy of just that frame's
/// rectangle. Not thread-safe; bitmaps handed out are copies.
final class GIFCanvas {
    let size: PixelSize
    private let storage: PixelStorage
    private let pixels: UnsafeMutablePointer<UInt32>
    /// The disposal of the frame drawn last, applied before the next one is drawn.
    private var pendingDisposal: (rect: GIFRect, disposal: GIFDisposal)?
    private var backup: [UInt32] = []
    /// Bytes of the frames handed out so far.
    private var handedOut = 0
    /// How the frames handed out are allocated (`PixelAllocation.animationFrames`, at
    /// the size they are kept at). When the survey counted fewer frames than the file
    /// holds (it stops at damage), the frames past `PixelStorage.mallocBytesPerAnimation`
    /// are mapped all the same.
    let frameAllocation: PixelAllocation

    /// A transparent canvas of `size` whose frames are kept as `frameAllocation` says;
    /// the caller has checked the pixel limit.
    init(size: PixelSize, frameAllocation: PixelAllocation) throws(ImageDecodingError) {
        self.frameAllocation = frameAllocation
        storage = try PixelStorage.packed(width: size.width, height: size.height, pixelFormat: .rgba8, allocation: .scratch)
        pixels = storage.withUnsafeMutableBytes { bytes in
            memset(bytes.baseAddress!, 0, bytes.count)
            return bytes.baseAddress!.bindMemory(to: UInt32.self, capacity: size.pixelCount)
        }
        self.size = size
    }

    /// The part of a frame's rectangle that lies on the screen.
    func clip(_ frame: GIFFrameDescriptor) -> GIFRect {
        GIFRect(clipping: frame, to: size)
    }

    /// Disposes of the previous frame, then keeps what `rect` holds if the new frame
    /// will need it restored.
    func beginFrame(_ rect: GIFRect, disposal: GIFDisposal) {
        if let (previous, method) = pendingDisposal {
            switch method {
            case .none: break
            case .background: fill(previous, with: 0)
            case .previous: restore(previous)
            }
            pendingDisposal = nil
        }
        if disposal == .previous { save(rect) }
    }

    /// Records how the frame just drawn in `rect` goes away.
    func endFrame(_ rect: GIFRect, disposal: GIFDisposal) {
        pendingDisposal = (rect, disposal)
    }

    /// Draws frame row `row` (0 at the frame's top) from its palette indices; indices
    /// equal to `transparentIndex` leave the canvas as it is.
    func draw(
        row: Int, indices: UnsafePointer<UInt8>, frame: GIFFrameDescriptor, rect: GIFRect,
        palette: UnsafePointer<UInt32>, transparentIndex: Int?
    ) {
        let y = frame.top + row
        guard y >= rect.y0, y < rect.y1, rect.x0 < rect.x1 else { return }
        let destination = pixels + y * size.width
        let skip = rect.x0 - frame.left
        if let transparent = transparentIndex {
            for x in rect.x0..<rect.x1 {
                let index = indices[x - frame.left]
                if Int(index) != transparent { destination[x] = palette[Int(index)] }
            }
        } else {
            for offset in 0..<(rect.x1 - rect.x0) {
                destination[rect.x0 + offset] = palette[Int(indices[skip + offset])]
            }
        }
    }

    /// Fills canvas rows of `rect` that the frame did not deliver with the nearest
    /// delivered row above, so an interlaced frame shows whole at low detail.
    func fillUndelivered(_ rect: GIFRect, frameTop: Int, delivered: [Bool]) {
        guard rect.x0 < rect.x1 else { return }
        var source: Int?
        for y in rect.y0..<rect.y1 {
            let row = y - frameTop
            if row < delivered.count, delivered[row] {
                source = y
            } else if let source {
                (pixels + y * size.width + rect.x0).update(from: pixels + source * size.width + rect.x0, count: rect.x1 - rect.x0)
            }
        }
    }

    /// The canvas as it is now, through `finish` (which may scale or convert it, into
    /// storage allocated as the allocation it is given says), in storage of its own.
    func snapshot(
        _ finish: (ImageBitmap, PixelAllocation) throws(ImageDecodingError) -> ImageBitmap
    ) throws(ImageDecodingError) -> ImageBitmap {
        let live = ImageBitmap(
            width: size.width, height: size.height, pixelFormat: .rgba8,
            bytesPerRow: size.width * 4, storage: storage)
        var allocation = frameAllocation
        if handedOut >= PixelStorage.mallocBytesPerAnimation { allocation.mappedOnItsOwn = true }
        var frame = try finish(live, allocation)
        // The canvas keeps changing: never hand out a bitmap that shares it.
        if frame.storage === storage { frame = try frame.copy(allocation: allocation) }
        handedOut += frame.storage.byteCount
        return frame
    }

    /// The canvas and what the last frame's disposal will do to it, kept to come back to.
    struct Checkpoint {
        fileprivate let pixels: [UInt32]
        fileprivate let pendingDisposal: (rect: GIFRect, disposal: GIFDisposal)?
        fileprivate let backup: [UInt32]

        var byteCount: Int { (pixels.count + backup.count) * 4 }
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(
            pixels: Array(UnsafeBufferPointer(start: pixels, count: size.pixelCount)),
            pendingDisposal: pendingDisposal, backup: backup)
    }

    func restore(_ checkpoint: Checkpoint) {
        checkpoint.pixels.withUnsafeBufferPointer { pixels.update(from: $0.baseAddress!, count: size.pixelCount) }
        pendingDisposal = checkpoint.pendingDisposal
        backup = checkpoint.backup
    }

    /// Back to the transparent canvas the first frame is drawn on.
    func clear() {
        pixels.update(repeating: 0, count: size.pixelCount)
        pendingDisposal = nil
        backup.removeAll()
    }

    private func fill(_ rect: GIFRect, with value: UInt32) {
        guard rect.x0 < rect.x1 else { return }
        for y in rect.y0..<rect.y1 {
            (pixels + y * size.width + rect.x0).update(repeating: value, count: rect.x1 - rect.x0)
        }
    }

    private func save(_ rect: GIFRect) {
        backup.removeAll(keepingCapacity: true)
        guard rect.x0 < rect.x1 else { return }
        backup.reserveCapacity(rect.pixelCount)
        for y in rect.y0..<rect.y1 {
            let row = pixels + y * size.width
            backup.append(contentsOf: UnsafeBufferPointer(start: row + rect.x0, count: rect.x1 - rect.x0))
        }
    }

    private func restore(_ rect: GIFRect) {
        guard rect.x0 < rect.x1, backup.count == rect.pixelCount else { return }
        let width = rect.x1 - rect.x0
        backup.withUnsafeBufferPointer { saved in
            for y in rect.y0..<rect.y1 {
                (pixels + y * size.width + rect.x0).update(from: saved.baseAddress! + (y - rect.y0) * width, count: width)
            }
        }
    }
}

/// A rectangle of the canvas, `[x0, x1) x [y0, y1)`, empty when `x0 >= x1` or `y0 >= y1`.
struct GIFRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int

    var pixelCount: Int { max(0, x1 - x0) * max(0, y1 - y0) }

    init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    /// The part of `frame`'s rectangle that lies on a screen of `screen`: what the frame
    /// draws, and what a "restore to previous" disposal keeps a copy of.
    init(clipping frame: GIFFrameDescriptor, to screen: PixelSize) {
        self.init(
            x0: min(max(frame.left, 0), screen.width), y0: min(max(frame.top, 0), screen.height),
            x1: min(frame.left + frame.width, screen.width), y1: min(frame.top + frame.height, screen.height))
    }
}
