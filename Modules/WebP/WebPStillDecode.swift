internal import CLibWebP
import WebImageCore

/// One still WebP image decoded straight into the library's pixel storage.
enum WebPStillDecode {
    /// Decodes the image in `bytes` at `target` size.
    ///
    /// When `target` is smaller than the image, libwebp scales while it decodes: the
    /// full-size picture never exists in memory. libwebp still decodes every
    /// macroblock, so a scaled decode takes about as long as a full one.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: WebPHeader, target: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageDecodingError(.empty, "no bytes to decode", format: .webp)
        }
        return try ImageBitmap(width: target.width, height: target.height, pixelFormat: .rgba8) {
            (out, stride) throws(ImageDecodingError) in
            var config = try makeConfig(header: header, target: target, out: out, stride: stride)
            let status = WebPDecode(base, bytes.count, &config)
            if let error = WebPStatus.error(status) { throw error }
        }
    }

    /// A decoder configuration that writes straight RGBA at `target` size into `out`.
    static func makeConfig(
        header: WebPHeader, target: PixelSize, out: UnsafeMutableRawBufferPointer, stride: Int
    ) throws(ImageDecodingError) -> WebPDecoderConfig {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0, let pixels = out.baseAddress else {
            throw ImageDecodingError(.unsupported, "this libwebp's decoder interface does not match its header", format: .webp)
        }
        if target != header.size {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(target.width)
            config.options.scaled_height = Int32(target.height)
        }
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = pixels.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(stride)
        config.output.u.RGBA.size = out.count
        return config
    }
}
