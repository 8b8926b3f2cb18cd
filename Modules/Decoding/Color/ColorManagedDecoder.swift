import Foundation
import WebImageCore

/// A decoder whose images come out in the colour space `DecodeOptions.color` asks for:
/// what ``ImageDecoderRegistry`` hands out when it has a colour engine.
///
/// The wrapped decoder reads the file's profile; this converts the decoded (and already
/// scaled-down) pixels. JPEG's CMYK files are converted inside the decode, at the
/// DCT-scaled size, since their ink cannot wait in an RGBA bitmap; so are 16-bit PNG
/// files (their frames, and partial images, included), row by row at full size, since
/// their low bits cannot either.
struct ColorManagedDecoder: ImageDecoding {
    let base: any ImageDecoding
    let converter: any ColorConverting

    var format: ImageFormat { base.format }

    func recognizes(_ header: Data) -> Bool { base.recognizes(header) }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        let image =
            if let converting = base as? any ConvertsWhileDecoding {
                try converting.decode(data, options: options, converter: converter)
            } else {
                try base.decode(data, options: options)
            }
        return ColorConversion.apply(options.color, to: image, converter: converter)
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        let decoder =
            if let converting = base as? any ConvertsWhileDecoding {
                converting.makeIncrementalDecoder(options: options, converter: converter)
            } else {
                base.makeIncrementalDecoder(options: options)
            }
        return ColorManagedIncrementalDecoder(base: decoder, options: options, converter: converter)
    }

    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        base.estimatedMemory(decoding: data, options: options)
    }

    func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try base.readHeader(data)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        let prepared =
            if let converting = base as? any ConvertsWhileDecoding {
                converting.prepareDecode(data, options: options, converter: converter)
            } else {
                base.prepareDecode(data, options: options)
            }
        return Self.converting(prepared, options: options, converter: converter)
    }

    func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        let surveyed =
            if let converting = base as? any ConvertsWhileDecoding {
                try converting.survey(data, converter: converter)
            } else {
                try base.survey(data)
            }
        let converter = converter
        return SurveyedImageSource(header: surveyed.header) { options in
            Self.converting(surveyed.prepareDecode(options: options), options: options, converter: converter)
        }
    }

    /// `prepared`, its image converted as `options` ask.
    private static func converting(
        _ prepared: PreparedImageDecode, options: DecodeOptions, converter: any ColorConverting
    ) -> PreparedImageDecode {
        PreparedImageDecode(format: prepared.format) {
            prepared.estimatedMemory
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            ColorConversion.apply(options.color, to: try prepared.decode(), converter: converter)
        }
    }
}

/// An incremental decoder whose partial and final images are converted as
/// `DecodeOptions.color` asks.
final class ColorManagedIncrementalDecoder: IncrementalImageDecoding {
    private let base: any IncrementalImageDecoding
    private let options: DecodeOptions
    private let converter: any ColorConverting

    init(base: any IncrementalImageDecoding, options: DecodeOptions, converter: any ColorConverting) {
        self.base = base
        self.options = options
        self.converter = converter
    }

    var format: ImageFormat { base.format }
    var info: ImageInfo? { base.info }
    var revision: Int { base.revision }

    func append(_ data: Data) throws(ImageDecodingError) { try base.append(data) }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        try base.partialImage().map { ColorConversion.apply(options.color, to: $0, converter: converter) }
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        ColorConversion.apply(options.color, to: try base.finish(), converter: converter)
    }
}

/// ``ColorManagedDecoder`` for a decoder that also reads frames one at a time: its frame
/// readers convert each frame as `DecodeOptions.color` asks, from the profile the
/// reader reports.
struct ColorManagedAnimatedDecoder: AnimatedImageDecoding {
    let managed: ColorManagedDecoder
    let base: any AnimatedImageDecoding

    init(base: any AnimatedImageDecoding, converter: any ColorConverting) {
        self.base = base
        managed = ColorManagedDecoder(base: base, converter: converter)
    }

    var format: ImageFormat { managed.format }

    func recognizes(_ header: Data) -> Bool { managed.recognizes(header) }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try managed.decode(data, options: options)
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        managed.makeIncrementalDecoder(options: options)
    }

    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        managed.estimatedMemory(decoding: data, options: options)
    }

    func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try managed.readHeader(data)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        managed.prepareDecode(data, options: options)
    }

    func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        try managed.survey(data)
    }

    func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading {
        let reader =
            if let converting = base as? any ConvertsFramesWhileDecoding {
                try converting.makeFrameReader(for: data, options: options, converter: managed.converter)
            } else {
                try base.makeFrameReader(for: data, options: options)
            }
        return ColorManagedFrameReader(base: reader, options: options, converter: managed.converter)
    }
}

/// A frame reader whose frames come out as `DecodeOptions.color` asks, each converted
/// as it is read (a frame is the reader's own copy).
final class ColorManagedFrameReader: ImageFrameReading {
    private let base: any ImageFrameReading
    private let options: DecodeOptions
    private let converter: any ColorConverting
    /// The profile the frames are in as converted: the file's with `preserve`, the
    /// target's otherwise (`nil` for sRGB, and after a transform that could not be built).
    private(set) var colorProfile: ColorProfile?

    init(base: any ImageFrameReading, options: DecodeOptions, converter: any ColorConverting) {
        self.base = base
        self.options = options
        self.converter = converter
        colorProfile =
            switch options.color {
            case .preserve: base.colorProfile
            case .convertToSRGB: nil
            case .convert(let target): target.isSRGB ? nil : target
            }
    }

    var info: ImageInfo { base.info }
    var loopCount: Int { base.loopCount }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard let frame = try base.nextFrame() else { return nil }
        let image = DecodedImage(format: base.info.format, frames: [frame], colorProfile: base.colorProfile)
        let converted = ColorConversion.apply(options.color, to: image, converter: converter)
        colorProfile = converted.colorProfile
        return converted.frames[0]
    }
}
