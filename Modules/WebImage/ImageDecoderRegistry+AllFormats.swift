import WebImageAVIF
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageWebP

extension ImageDecoderRegistry {
    /// Every decoder of this package: PNG, JPEG and GIF (`standard`), WebP and AVIF,
    /// the last registered asked first, with LittleCMS's colour engine
    /// (`LittleCMSColorConverter.shared`): images come out in sRGB, as a browser shows
    /// them. The default of `WebImageConfiguration.decoders` and of the image proxy.
    public static var allFormats: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = LittleCMSColorConverter.shared
        registry.register(WebPDecoder())
        registry.register(AVIFDecoder())
        return registry
    }
}
