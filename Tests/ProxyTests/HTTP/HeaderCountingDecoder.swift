import Foundation
import Synchronization
import WebImage
@_spi(Testing) import WebImageDecoding

@testable import WebImageConcurrency

/// A format's real decoder, counting what is asked of it: the sniffs that ask it whether it
/// reads some bytes, and the header parses made through it, wherever the proxy runs them
/// (each call binds ``parses`` for its own task, and so does every decode it prepares).
final class HeaderCountingDecoder: ImageDecoding {
    let base: any ImageDecoding
    /// The header parses made by calls into this decoder.
    let parses = HeaderParseLog()
    private let sniffCount = Locked(0)

    init(_ base: any ImageDecoding) {
        self.base = base
    }

    /// How many times a sniff asked this decoder whether it reads a file.
    var sniffs: Int { sniffCount.withLock { $0 } }

    var format: ImageFormat { base.format }

    func recognizes(_ header: Data) -> Bool {
        sniffCount.withLock { $0 += 1 }
        return base.recognizes(header)
    }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try loggedThrowing { () throws(ImageDecodingError) in try base.decode(data, options: options) }
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        base.makeIncrementalDecoder(options: options)
    }

    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        logged { base.estimatedMemory(decoding: data, options: options) }
    }

    func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try loggedThrowing { () throws(ImageDecodingError) in try base.readHeader(data) }
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        logging(logged { base.prepareDecode(data, options: options) })
    }

    func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        let surveyed = try loggedThrowing { () throws(ImageDecodingError) in try base.survey(data) }
        return SurveyedImageSource(header: surveyed.header) { options in
            self.logging(self.logged { surveyed.prepareDecode(options: options) })
        }
    }

    /// `prepared`, its estimate and decode run with ``parses`` bound.
    private func logging(_ prepared: PreparedImageDecode) -> PreparedImageDecode {
        PreparedImageDecode(format: prepared.format) {
            self.logged { prepared.estimatedMemory }
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            try self.loggedThrowing { () throws(ImageDecodingError) in try prepared.decode() }
        }
    }

    private func logged<T>(_ body: () -> T) -> T {
        HeaderParseLog.$current.withValue(parses) { body() }
    }

    private func loggedThrowing<T>(_ body: () throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        try logged { Result(catching: body) }.get()
    }
}
