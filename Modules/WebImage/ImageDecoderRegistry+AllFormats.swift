import WebImageCore
import WebImageDecoding
import WebImageWebP

extension ImageDecoderRegistry {
    /// Every decoder of this package: PNG, JPEG and GIF (`standard`) and WebP, WebP
    /// asked first. The default of `WebImageConfiguration.decoders`.
    public static var allFormats: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        return registry
    }
}
