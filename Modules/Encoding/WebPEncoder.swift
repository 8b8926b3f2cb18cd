internal import CLibWebPEncode
import Foundation
import WebImageCore

/// Writes WebP with libwebp: lossy or lossless stills, and animations.
///
/// Lossy is what a thumbnail server wants (``realTime`` for the request path); lossless
/// keeps every pixel, the colour under fully transparent pixels included (`exact`), and
/// is much slower to write. Gray bitmaps are written as colour (WebP has no gray mode).
/// Orientation and metadata are not written: encode an upright bitmap.
///
/// ```swift
/// let webp = try WebPEncoder.realTime.encode(thumbnail.bitmap)
/// let animation = try WebPEncoder(quality: 70).encodeAnimation(decodedGIF)
/// ```
///
/// Thread contract: a value; `encode` may run on any thread, at once on several.
public struct WebPEncoder: AnimatedImageEncoding {
    public var format: ImageFormat { .webp }
    /// 0 to 100: the lossy quality, or the lossless effort. 80 by default.
    public var quality: Float
    public var lossless: Bool
    /// libwebp's effort, 0 (fastest) to 6 (smallest files); 4 by default, libwebp's own.
    /// The effort of stills and of lossless animations.
    public var method: Int
    /// libwebp's effort for the frames of a lossy animation: 2 by default.
    ///
    /// An animation is hundreds of small encodes, and the search methods 3 and up add
    /// buys little there: a 300-frame 480x360 GIF made into a 200 px animation took 35%
    /// less CPU at method 2 than at 4, for a file 5% larger and frames 0.07 dB lower in
    /// PSNR (beside the source frames scaled by Pillow). Set it to ``method`` for the
    /// same effort as stills.
    public var animationMethod: Int
    /// The ICC profile to embed as an `ICCP` chunk, for pixels in that space
    /// (`DecodedImage.colorProfile` of an image decoded with `ColorHandling.preserve`);
    /// `nil` writes none, which viewers read as sRGB. Stills only.
    public var colorProfile: ColorProfile?

    public init(quality: Float = 80, lossless: Bool = false, method: Int = 4, animationMethod: Int = 2) {
        self.quality = quality
        self.lossless = lossless
        self.method = method
        self.animationMethod = animationMethod
    }

    /// Lossy at quality 75 and method 1 (animations too): about twice as fast as the default method
    /// for files a few percent larger, for encoding while a request waits.
    public static let realTime = WebPEncoder(quality: 75, method: 1, animationMethod: 1)

    /// The bytes of a WebP file holding `bitmap`.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed` for an empty bitmap, a side
    ///   over 16,383 (WebP's limit), or when libwebp fails.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        try Self.checkSize(bitmap.width, bitmap.height)
        var config = try makeConfig(method: method)
        return try WebPPictureInput.with(bitmap) { (picture) throws(ImageDecodingError) -> Data in
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
            guard let colorProfile else { return Data(bytes: bytes, count: writer.size) }
            return try Self.withProfile(colorProfile, UnsafeRawBufferPointer(start: bytes, count: writer.size))
        }
    }

    /// The file in `webp` with `profile` in an `ICCP` chunk, through libwebp's muxer
    /// (which sets the `VP8X` flag and places the chunk).
    private static func withProfile(_ profile: ColorProfile, _ webp: UnsafeRawBufferPointer) throws(ImageDecodingError) -> Data {
        var image = WebPData(bytes: webp.baseAddress?.assumingMemoryBound(to: UInt8.self), size: webp.count)
        guard let mux = WebPMuxCreate(&image, 0) else {
            throw ImageDecodingError(.encodingFailed, "libwebp's muxer could not read the encoded image", format: .webp)
        }
        defer { WebPMuxDelete(mux) }
        let icc = [UInt8](profile.data)
        return try icc.withUnsafeBufferPointer { (bytes) throws(ImageDecodingError) -> Data in
            var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            var assembled = WebPData()
            guard WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK, WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK,
                let out = assembled.bytes
            else {
                throw ImageDecodingError(.encodingFailed, "libwebp's muxer could not add the ICC profile", format: .webp)
            }
            defer { WebPDataClear(&assembled) }
            return Data(bytes: out, count: assembled.size)
        }
    }

    /// An animated WebP of `image`'s frames (all the canvas size), each shown for its
    /// `ImageFrame.storedDelay` (the delay as the source wrote it, not the browser
    /// rule's), played `image.loopCount` times (0 forever). A still image gives a
    /// one-frame animation.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed`.
    public func encodeAnimation(_ image: DecodedImage) throws(ImageDecodingError) -> Data {
        let size = image.size
        try Self.checkSize(size.width, size.height)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp's animation encoder does not match its header", format: .webp)
        }
        options.anim_params.loop_count = Int32(clamping: image.loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &options) else {
            throw ImageDecodingError(.encodingFailed, "libwebp could not start an animation", format: .webp)
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = try makeConfig(method: lossless ? method : animationMethod)
        var timestamp = 0
        // Frame by frame: an animation composed on demand holds one frame at a time.
        try image.forEachFrame { (_, frame) throws(ImageDecodingError) in
            guard frame.bitmap.size == size else {
                throw ImageDecodingError(.encodingFailed, "a frame of \(frame.bitmap.size) in an animation of \(size)", format: .webp)
            }
            let added = try WebPPictureInput.with(frame.bitmap) { picture in
                WebPAnimEncoderAdd(encoder, picture, Int32(clamping: timestamp), &config)
            }
            guard added != 0 else { throw Self.animationError(encoder) }
            let milliseconds =
                frame.storedDelay.components.seconds * 1000 + frame.storedDelay.components.attoseconds / 1_000_000_000_000_000
            timestamp += Int(max(0, milliseconds))
        }
        var output = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0, WebPAnimEncoderAssemble(encoder, &output) != 0,
            let bytes = output.bytes
        else { throw Self.animationError(encoder) }
        defer { WebPDataClear(&output) }
        return Data(bytes: bytes, count: output.size)
    }

    private func makeConfig(method: Int) throws(ImageDecodingError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp's encoder does not match its header", format: .webp)
        }
        config.quality = min(100, max(0, quality))
        config.lossless = lossless ? 1 : 0
        config.method = Int32(min(6, max(0, method)))
        config.exact = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageDecodingError(.encodingFailed, "libwebp refused the settings", format: .webp)
        }
        return config
    }

    private static func checkSize(_ width: Int, _ height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0, width <= 16_383, height <= 16_383 else {
            throw ImageDecodingError(.encodingFailed, "WebP cannot hold a \(width)x\(height) image", format: .webp)
        }
    }

    private static func animationError(_ encoder: OpaquePointer) -> ImageDecodingError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return ImageDecodingError(.encodingFailed, "libwebp: \(message)", format: .webp)
    }
}

/// A libwebp picture holding a bitmap's pixels (gray expanded to RGBA) for one call.
enum WebPPictureInput {
    static func with<T>(
        _ bitmap: ImageBitmap, _ body: (UnsafeMutablePointer<WebPPicture>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
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
        let imported: Int32
        if bitmap.pixelFormat == .gray8 {
            var rgba = [UInt8](repeating: 255, count: bitmap.width * bitmap.height * 4)
            bitmap.withUnsafeBytes { gray in
                for y in 0..<bitmap.height {
                    for x in 0..<bitmap.width {
                        let value = gray[y * bitmap.bytesPerRow + x]
                        let at = (y * bitmap.width + x) * 4
                        rgba[at] = value
                        rgba[at + 1] = value
                        rgba[at + 2] = value
                    }
                }
            }
            imported = WebPPictureImportRGBA(picture, rgba, Int32(bitmap.width * 4))
        } else {
            imported = bitmap.withUnsafeBytes { pixels in
                WebPPictureImportRGBA(picture, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(bitmap.bytesPerRow))
            }
        }
        guard imported != 0 else { throw ImageDecodingError(.encodingFailed, "libwebp could not take the pixels", format: .webp) }
        return try body(picture)
    }
}
