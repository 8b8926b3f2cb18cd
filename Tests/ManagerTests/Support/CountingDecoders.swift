import Foundation
import Synchronization
import WebImage

@testable import WebImageConcurrency

/// The decoders of `registry`, noting every call the manager makes of them and of the
/// decodes they prepare, with the format of the decoder called.
final class CountingDecoders: ImageDecoderProviding {
    let registry: ImageDecoderRegistry
    private let calls = Locked<[(call: String, format: ImageFormat)]>([])

    init(_ registry: ImageDecoderRegistry = .allFormats) {
        self.registry = registry
    }

    /// How many times `call` was made.
    func count(_ call: String) -> Int { calls.withLock { made in made.count { $0.call == call } } }

    /// The decodes of bytes in `format` so far, direct or prepared: a load answered from a
    /// stored variant decodes its PNG and never the JPEG source.
    func count(_ format: ImageFormat) -> Int {
        calls.withLock { made in made.count { $0.format == format && ($0.call == "decode" || $0.call == "prepared decode") } }
    }

    fileprivate func note(_ call: String, _ format: ImageFormat) { calls.withLock { $0.append((call, format)) } }

    func decoder(for header: Data) throws(ImageDecodingError) -> any ImageDecoding {
        let decoder = try registry.decoder(for: header)
        note("decoder(for:)", decoder.format)
        return CountingDecoder(inner: decoder, owner: self)
    }
}

/// One of the registry's decoders, reporting to its ``CountingDecoders``.
private struct CountingDecoder: ImageDecoding {
    let inner: any ImageDecoding
    let owner: CountingDecoders

    var format: ImageFormat { inner.format }

    func recognizes(_ header: Data) -> Bool { inner.recognizes(header) }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        owner.note("decode", format)
        return try inner.decode(data, options: options)
    }

    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        owner.note("estimatedMemory", format)
        return inner.estimatedMemory(decoding: data, options: options)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        owner.note("prepareDecode", format)
        let prepared = inner.prepareDecode(data, options: options)
        let (owner, format) = (owner, inner.format)
        return PreparedImageDecode(format: prepared.format) {
            owner.note("prepared estimate", format)
            return prepared.estimatedMemory
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            owner.note("prepared decode", format)
            return try prepared.decode()
        }
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        inner.makeIncrementalDecoder(options: options)
    }
}
