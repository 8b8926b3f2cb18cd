import Foundation
import WebImageCore

// Each built-in decoder's prepared decode: the header walk a memory estimate needs is the
// one the decode needs too, so it runs once and both read its result. The decode then
// throws exactly what `decode(_:options:)` throws for the same bytes: the parsed values
// are the ones that decode would have read first.

extension PNGDecoder {
    /// Reads the chunk list up to the first IDAT once (the APNG structure), for the
    /// estimate and for the decode, which otherwise both read it.
    public func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        prepareDecode(data, options: options, converter: nil)
    }

    /// The prepared decode whose 16-bit images (still or animated) are converted by `converter` before
    /// their samples are reduced (see `decode(_:options:structure:converter:)`).
    func prepareDecode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) -> PreparedImageDecode {
        prepareDecode(data, options: options, converter: converter, structure: data.isEmpty ? nil : APNGStructure(data))
    }

    /// The prepared decode from the chunk list already read.
    func prepareDecode(
        _ data: Data, options: DecodeOptions, converter: (any ColorConverting)?, structure: APNGStructure?
    ) -> PreparedImageDecode {
        PreparedImageDecode(format: .png) {
            Self.estimatedMemory(decoding: data, options: options) { structure }
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            try self.decode(data, options: options, structure: structure, converter: converter)
        }
    }
}

extension GIFDecoder {
    /// Surveys the blocks once (frames, limits, loop count), for the estimate and for the
    /// frame reader, which otherwise both walk the whole file.
    public func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        guard let screen = Self.logicalScreen(data) else {
            // Too short, or no pixels: no estimate, and the decode says what is wrong.
            return PreparedImageDecode(format: .gif) {
                nil
            } decode: { () throws(ImageDecodingError) -> DecodedImage in
                try self.decode(data, options: options)
            }
        }
        return prepareDecode(data, options: options, screen: screen, survey: try? GIFSurvey(data: data, screen: screen, options: options))
    }

    /// The prepared decode from the survey already made for `options` (`nil`: it refused
    /// the file).
    func prepareDecode(_ data: Data, options: DecodeOptions, screen: PixelSize, survey: GIFSurvey?) -> PreparedImageDecode {
        PreparedImageDecode(format: .gif) {
            Self.estimatedMemory(screen: screen, survey: survey, options: options)
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            // A survey that refused the file is made again by the decode, which throws its error.
            try self.decode(data, options: options, surveyed: survey.map { GIFSurvey.OfScreen(screen: screen, survey: $0) })
        }
    }
}

// JPEGDecoder keeps the protocol's default: its estimate is a segment walk made only when
// asked (so a caller without a memory budget makes none), and its decode reads the
// markers with libjpeg as the first step of decompressing, which no walk can replace.
