import Foundation
import WebImageCore

/// Buffers the first bytes of a stream until the format is known, then forwards to
/// the matching decoder's incremental decoder.
final class SniffingIncrementalDecoder: IncrementalImageDecoding {
    private let registry: ImageDecoderRegistry
    private let options: DecodeOptions
    private var pending = Data()
    private var inner: (any IncrementalImageDecoding)?

    init(registry: ImageDecoderRegistry, options: DecodeOptions) {
        self.registry = registry
        self.options = options
    }

    var format: ImageFormat { inner?.format ?? ImageFormat.sniff(pending) ?? ImageFormat("unknown", mimeType: "application/octet-stream") }
    var info: ImageInfo? { inner?.info }
    var revision: Int { inner?.revision ?? 0 }

    func append(_ data: Data) throws(ImageDecodingError) {
        if let inner {
            try inner.append(data)
            return
        }
        pending.append(data)
        if pending.count >= ImageFormat.sniffLength {
            try start()
        }
    }

    private func start() throws(ImageDecodingError) {
        let decoder = try registry.decoder(for: pending)
        let inner = decoder.makeIncrementalDecoder(options: options)
        self.inner = inner
        let buffered = pending
        pending = Data()
        try inner.append(buffered)
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        try inner?.partialImage()
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        if inner == nil { try start() }
        return try inner!.finish()
    }
}
