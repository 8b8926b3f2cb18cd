import Foundation
import WebImageCore

/// A built-in decoder that converts colours inside its own decode, where the pixels
/// cannot wait for the registry's conversion of an 8-bit RGBA bitmap: JPEG's CMYK ink,
/// PNG's 16-bit samples. ``ColorManagedDecoder`` hands it the colour engine through
/// these; any other decoder's pixels are converted after its decode.
protocol ConvertsWhileDecoding: ImageDecoding {
    /// Decodes, converting inside the decode what the options ask.
    func decode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) throws(ImageDecodingError) -> DecodedImage
    /// The prepared decode whose decode is ``decode(_:options:converter:)``.
    func prepareDecode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) -> PreparedImageDecode
    /// The survey whose prepared decodes are ``prepareDecode(_:options:converter:)``'s.
    func survey(_ data: Data, converter: (any ColorConverting)?) throws(ImageDecodingError) -> SurveyedImageSource
    /// The incremental decoder that converts inside its own decode too, partial images
    /// included.
    func makeIncrementalDecoder(options: DecodeOptions, converter: any ColorConverting) -> any IncrementalImageDecoding
}

/// ``ConvertsWhileDecoding`` for frame readers: an animated format whose frames are
/// converted as they are read.
protocol ConvertsFramesWhileDecoding: AnimatedImageDecoding {
    func makeFrameReader(
        for data: Data, options: DecodeOptions, converter: any ColorConverting
    ) throws(ImageDecodingError) -> any ImageFrameReading
}

extension JPEGDecoder: ConvertsWhileDecoding {
    /// The protocol's default prepared decode (the estimate is a segment walk made only
    /// when asked), decoding with `converter`.
    func prepareDecode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) -> PreparedImageDecode {
        PreparedImageDecode(format: .jpeg) {
            estimatedMemory(decoding: data, options: options)
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            try decode(data, options: options, converter: converter)
        }
    }

    /// Only a whole decode converts CMYK inside it; an incremental decode's images are
    /// converted after.
    func makeIncrementalDecoder(options: DecodeOptions, converter: any ColorConverting) -> any IncrementalImageDecoding {
        makeIncrementalDecoder(options: options)
    }
}

extension PNGDecoder: ConvertsWhileDecoding, ConvertsFramesWhileDecoding {
    func decode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: options, structure: data.isEmpty ? nil : APNGStructure(data), converter: converter)
    }
}
