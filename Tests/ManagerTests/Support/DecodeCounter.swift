import Foundation
import Synchronization
import WebImage

/// The built-in decoders, counting the decodes they make by format: a load answered from
/// a stored variant decodes its PNG and never the JPEG source.
final class DecodeCounter: ImageDecoderProviding {
    let registry: ImageDecoderRegistry
    private let decodes = Mutex<[ImageFormat: Int]>([:])

    init(_ registry: ImageDecoderRegistry = .allFormats) {
        self.registry = registry
    }

    func decoder(for header: Data) throws(ImageDecodingError) -> any ImageDecoding {
        CountedDecoder(inner: try registry.decoder(for: header), counter: self)
    }

    /// The decodes of bytes in `format` so far.
    func count(_ format: ImageFormat) -> Int { decodes.withLock { $0[format, default: 0] } }

    fileprivate func note(_ format: ImageFormat) { decodes.withLock { $0[format, default: 0] += 1 } }
}

/// One of the registry's decoders, counting its decodes in its ``DecodeCounter``.
private struct CountedDecoder: ImageDecoding {
    let inner: any ImageDecoding
    let counter: DecodeCounter

    var format: ImageFormat { inner.format }

    func recognizes(_ header: Data) -> Bool { inner.recognizes(header) }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        counter.note(inner.format)
        return try inner.decode(data, options: options)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        let prepared = inner.prepareDecode(data, options: options)
        let (counter, format) = (counter, inner.format)
        return PreparedImageDecode(format: prepared.format) {
            prepared.estimatedMemory
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            counter.note(format)
            return try prepared.decode()
        }
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        inner.makeIncrementalDecoder(options: options)
    }
}
