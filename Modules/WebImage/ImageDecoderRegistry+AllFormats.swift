import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageWebP

extension ImageDecoderRegistry {
    /// Every decoder of this package: PNG, JPEG and GIF (`standard`), WebP and AVIF,
    /// the last registered asked first. The default of `WebImageConfiguration.decoders`.
    public static var allFormats: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        registry.register(AVIFDecoder())
        return registry
    }
}
