internal import CWebImageFixtures
import Foundation
import WebImageCore
import WebImageEncoding

/// Writes WebP fixtures: the library's `WebPEncoder` for stills and animations, plus an
/// EXIF chunk with an orientation when asked (libwebp's muxer), which the library's
/// encoder does not write.
///
/// Lossless files keep every pixel exactly, the colour under fully transparent pixels
/// included (`exact`), so a decoder's output can be compared byte for byte.
///
/// ```swift
/// let webp = try WebPFixtureEncoder(lossless: true).encode(bitmap)
/// ```
///
/// Thread contract: a value; `encode` may run on any thread, at once on several.
public struct WebPFixtureEncoder: ImageEncoding {
    public var format: ImageFormat { .webp }
    /// 0...100: the lossy quality, or the lossless effort.
    public var quality: Float
    public var lossless: Bool
    /// libwebp's effort, 0 (fastest) to 6 (smallest files); 4 is libwebp's default.
    public var method: Int
    /// When set, the file is an extended one with an EXIF chunk holding this orientation.
    public var exifOrientation: ImageOrientation?

    public init(quality: Float = 80, lossless: Bool = false, method: Int = 4, exifOrientation: ImageOrientation? = nil) {
        self.quality = quality
        self.lossless = lossless
        self.method = method
        self.exifOrientation = exifOrientation
    }

    /// The library's encoder with these settings.
    private var encoder: WebPEncoder { WebPEncoder(quality: quality, lossless: lossless, method: method, animationMethod: method) }

    /// The bytes of a WebP file holding `bitmap` (written by `WebPEncoder`), with the
    /// EXIF chunk when asked.
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed`` when libwebp refuses it.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        let image = try encoder.encode(bitmap)
        guard let exifOrientation else { return image }
        return try Self.adding(exif: Data(ExifOrientationBlock.bytes(UInt16(exifOrientation.rawValue), littleEndian: true)), to: image)
    }

    /// An animation of `frames` (all the same size), each shown for its entry of
    /// `durations` (milliseconds), played `loopCount` times (0: forever).
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``.
    public func encodeAnimation(_ frames: [ImageBitmap], durations: [Int], loopCount: Int = 0) throws(ImageDecodingError) -> Data {
        guard let first = frames.first, durations.count == frames.count else {
            throw ImageDecodingError(.encodingFailed, "an animation needs frames and one duration each", format: .webp)
        }
        let timed = zip(frames, durations).map { frame, milliseconds in
            ImageFrame(bitmap: frame, duration: .milliseconds(milliseconds), storedDelay: .milliseconds(milliseconds))
        }
        return try encoder.encodeAnimation(DecodedImage(format: .webp, frames: timed, loopCount: loopCount, sourceSize: first.size))
    }

    /// `image` as an extended file with an EXIF chunk (libwebp's muxer).
    static func adding(exif: Data, to image: Data) throws(ImageDecodingError) -> Data {
        var output = wif_buffer()
        defer { wif_buffer_free(&output) }
        let status = image.withUnsafeBytes { imageBytes in
            exif.withUnsafeBytes { exifBytes in
                wif_webp_add_exif(
                    imageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), imageBytes.count,
                    exifBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), exifBytes.count, &output)
            }
        }
        guard status == 0, let bytes = output.data else {
            throw ImageDecodingError(.encodingFailed, "libwebp's muxer could not add the EXIF chunk", format: .webp)
        }
        return Data(bytes: bytes, count: output.size)
    }
}
