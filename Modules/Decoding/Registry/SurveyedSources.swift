import Foundation
import WebImageCore

// Each built-in decoder's survey: the header read once, its parse kept for the decodes
// prepared from it. Each prepared decode gives the estimate and the image (or error) its
// `prepareDecode(_:options:)` gives for the same bytes and options.

extension JPEGDecoder {
    /// Reads the header with libjpeg once; each decode prepared from it takes its
    /// estimate from that read, and decodes as ``prepareDecode(_:options:)``'s does.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        try survey(data, converter: nil)
    }

    func survey(_ data: Data, converter: (any ColorConverting)?) throws(ImageDecodingError) -> SurveyedImageSource {
        let (header, frame) = try Self.readHeaders(data)
        return SurveyedImageSource(header: header) { options in
            PreparedImageDecode(format: .jpeg) {
                Self.estimatedMemory(header: frame, options: options)
            } decode: { () throws(ImageDecodingError) -> DecodedImage in
                try decode(data, options: options, converter: converter)
            }
        }
    }
}

extension PNGDecoder {
    /// Reads IHDR and the chunk list once (the APNG structure); each decode prepared from
    /// it reads that list.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        try survey(data, converter: nil)
    }

    func survey(_ data: Data, converter: (any ColorConverting)?) throws(ImageDecodingError) -> SurveyedImageSource {
        let (header, structure) = try Self.readHeader(data)
        return SurveyedImageSource(header: header) { options in
            prepareDecode(data, options: options, converter: converter, structure: structure)
        }
    }
}

extension GIFDecoder {
    /// Surveys every block once, with no limits; each decode prepared from it narrows that
    /// survey to its options (their limits, a first frame only) instead of walking again.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        let (header, screen, survey) = try Self.readHeader(data)
        return SurveyedImageSource(header: header) { options in
            prepareDecode(data, options: options, screen: screen, survey: survey.narrowed(to: options, screen: screen))
        }
    }
}
