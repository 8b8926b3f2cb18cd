import WebImageCore
import WebImageDecoding

/// A frame made from a composed canvas: copied, or scaled straight from it, then
/// finished as `options` ask. What the animation decoder and the frame composer share.
enum WebPCanvasFrame {
    /// The canvas's pixels (packed RGBA of `size`) as a frame `storedDelay` long, at
    /// `options`' target size; `animated` is false for a file of one frame (no timing).
    static func make(
        from canvas: UnsafePointer<UInt8>, size: PixelSize, options: DecodeOptions, allocation frameAllocation: PixelAllocation,
        storedDelay: Duration, animated: Bool
    ) throws(ImageDecodingError) -> ImageFrame {
        let target = options.targetSize(for: size)
        let whole: ImageBitmap
        if target == size {
            let storage = try PixelStorage.packed(
                width: size.width, height: size.height, pixelFormat: .rgba8,
                allocation: options.allocation(ofDecoded: size, frames: frameAllocation))
            storage.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: canvas, byteCount: size.pixelCount * 4) }
            whole = ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8, bytesPerRow: size.width * 4, storage: storage)
        } else {
            // Scaled straight from the canvas: no full-size copy.
            let downsampler = try RowDownsampler(
                source: size, target: target, pixelFormat: .rgba8,
                allocation: options.allocation(ofDecoded: target, frames: frameAllocation))
            for y in 0..<size.height { downsampler.consume(row: canvas + y * size.width * 4) }
            whole = downsampler.finish()
        }
        let bitmap = try PostProcessing.finish(whole, options: options, orientation: .up, allocation: frameAllocation).0
        return ImageFrame(
            bitmap: bitmap, duration: animated ? ImageFrame.playbackDuration(forStoredDelay: storedDelay) : .zero,
            storedDelay: animated ? storedDelay : .zero)
    }
}
