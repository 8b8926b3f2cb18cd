internal import CFixtureWebP
import Foundation
import WebImageCore

/// Writes WebP fixtures with libwebp's encoder: lossy or lossless stills, with an EXIF
/// orientation when asked, and animations (libwebp's `WebPAnimEncoder`).
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

    /// The bytes of a WebP file holding `bitmap` (RGBA).
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed`` when libwebp refuses it.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        let image = try withPicture(bitmap) { (picture) throws(ImageDecodingError) -> Data in
            var config = try makeConfig()
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            let written = withUnsafeMutablePointer(to: &writer) { pointer in
                picture.pointee.writer = WebPMemoryWrite
                picture.pointee.custom_ptr = UnsafeMutableRawPointer(pointer)
                return WebPEncode(&config, picture)
            }
            guard written != 0, let bytes = writer.mem else {
                throw ImageDecodingError(.encodingFailed, "libwebp error \(picture.pointee.error_code.rawValue)", format: .webp)
            }
            return Data(bytes: bytes, count: writer.size)
        }
        guard let exifOrientation else { return image }
        return try Self.adding(exif: Self.exif(orientation: exifOrientation), to: image)
    }

    /// An animation of `frames` (RGBA, all the same size), each shown for its entry of
    /// `durations` (milliseconds), played `loopCount` times (0: forever).
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``.
    public func encodeAnimation(_ frames: [ImageBitmap], durations: [Int], loopCount: Int = 0) throws(ImageDecodingError) -> Data {
        guard let first = frames.first, durations.count == frames.count else {
            throw ImageDecodingError(.encodingFailed, "an animation needs frames and one duration each", format: .webp)
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp's animation encoder does not match its header", format: .webp)
        }
        options.anim_params.loop_count = Int32(loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw ImageDecodingError(.encodingFailed, "libwebp could not start an animation", format: .webp)
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = try makeConfig()
        var timestamp: Int32 = 0
        for (frame, duration) in zip(frames, durations) {
            let added = try withPicture(frame) { picture in WebPAnimEncoderAdd(encoder, picture, timestamp, &config) }
            guard added != 0 else {
                throw ImageDecodingError(.encodingFailed, String(cString: WebPAnimEncoderGetError(encoder)), format: .webp)
            }
            timestamp += Int32(duration)
        }
        var output = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0, WebPAnimEncoderAssemble(encoder, &output) != 0,
            let bytes = output.bytes
        else {
            throw ImageDecodingError(.encodingFailed, String(cString: WebPAnimEncoderGetError(encoder)), format: .webp)
        }
        defer { WebPDataClear(&output) }
        return Data(bytes: bytes, count: output.size)
    }

    private func makeConfig() throws(ImageDecodingError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp's encoder does not match its header", format: .webp)
        }
        config.quality = quality
        config.lossless = lossless ? 1 : 0
        config.method = Int32(Swift.min(6, Swift.max(0, method)))
        config.exact = 1
        return config
    }

    /// A libwebp picture holding `bitmap`'s pixels, for the length of `body`.
    private func withPicture<T>(
        _ bitmap: ImageBitmap, _ body: (UnsafeMutablePointer<WebPPicture>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        guard bitmap.pixelFormat == .rgba8 else {
            throw ImageDecodingError(.encodingFailed, "the WebP fixture encoder takes RGBA", format: .webp)
        }
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        defer { picture.deallocate() }
        picture.initialize(to: WebPPicture())
        guard WebPPictureInit(picture) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp's picture does not match its header", format: .webp)
        }
        defer { WebPPictureFree(picture) }
        picture.pointee.use_argb = 1
        picture.pointee.width = Int32(bitmap.width)
        picture.pointee.height = Int32(bitmap.height)
        let imported = bitmap.withUnsafeBytes { pixels in
            WebPPictureImportRGBA(picture, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(bitmap.bytesPerRow))
        }
        guard imported != 0 else { throw ImageDecodingError(.encodingFailed, "libwebp could not take the pixels", format: .webp) }
        return try body(picture)
    }

    /// A little-endian TIFF block with one IFD entry: the orientation.
    static func exif(orientation: ImageOrientation) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
        bytes += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]
        bytes += [UInt8(orientation.rawValue), 0x00, 0x00, 0x00]
        bytes += [0x00, 0x00, 0x00, 0x00]
        return Data(bytes)
    }

    /// `image` as an extended file with an EXIF chunk (libwebp's muxer).
    static func adding(exif: Data, to image: Data) throws(ImageDecodingError) -> Data {
        guard let mux = WebPMuxNew() else { throw ImageDecodingError(.encodingFailed, "libwebp's muxer failed", format: .webp) }
        defer { WebPMuxDelete(mux) }
        var output = WebPData()
        let status = image.withUnsafeBytes { imageBytes in
            exif.withUnsafeBytes { exifBytes in
                var imageData = WebPData(bytes: imageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: imageBytes.count)
                var exifData = WebPData(bytes: exifBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: exifBytes.count)
                guard WebPMuxSetImage(mux, &imageData, 1) == WEBP_MUX_OK, WebPMuxSetChunk(mux, "EXIF", &exifData, 1) == WEBP_MUX_OK
                else { return WEBP_MUX_BAD_DATA }
                return WebPMuxAssemble(mux, &output)
            }
        }
        guard status == WEBP_MUX_OK, let bytes = output.bytes else {
            throw ImageDecodingError(.encodingFailed, "libwebp's muxer could not add the EXIF chunk", format: .webp)
        }
        defer { WebPDataClear(&output) }
        return Data(bytes: bytes, count: output.size)
    }
}
