import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageWebP

/// Every decoder of the library, as the `WebImage` umbrella's default registry has them.
enum FuzzRegistry {
    static let all: ImageDecoderRegistry = {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        registry.register(AVIFDecoder())
        return registry
    }()
}
