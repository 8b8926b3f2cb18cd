import Foundation
import WebImageCore

// Each built-in decoder's header, read with the same walks the memory estimates use:
// nothing is decoded, and the work grows with the segments, chunks or blocks.

extension JPEGDecoder {
    /// The frame header, the first Exif block and its orientation, and whether the colour
    /// is other than sRGB (CMYK, or an APP2 ICC profile that is not sRGB), as libjpeg
    /// reads them.
    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try Self.readHeaders(data).header
    }

    /// The header libjpeg reads (a header-only read, nothing decompressed), as the caller
    /// sees it and as the memory estimate reads it.
    static func readHeaders(_ data: Data) throws(ImageDecodingError) -> (header: ImageHeader, frame: JPEGHeader) {
        HeaderParseLog.record(.jpeg)
        let read = data.withUnsafeBytes { bytes -> (JPEGHeader, ImageOrientation, Bool, Data?)? in
            guard let engine = try? JPEGDecompressor(incremental: false), (try? engine.borrow(bytes)) != nil,
                (try? engine.step()) == .headerReady
            else { return nil }
            let header = engine.header
            var nonSRGB = header.colorModel == .cmyk
            if case .profile(let icc) = engine.embeddedProfile, let profile = try? ColorProfile(iccData: icc) {
                nonSRGB = nonSRGB || !profile.isSRGB
            }
            return (header, engine.orientation, nonSRGB, engine.exif)
        }
        guard let (frame, orientation, nonSRGB, exif) = read else {
            throw ImageDecodingError(.invalidHeader, "the JPEG headers cannot be read", format: .jpeg)
        }
        let header = ImageHeader(
            info: ImageInfo(format: .jpeg, size: frame.size, orientation: orientation, isProgressive: frame.isProgressive),
            hasNonSRGBColor: nonSRGB, exif: exif)
        return (header, frame)
    }
}

extension PNGDecoder {
    /// IHDR's size and interlace method; for an animated PNG, its frames; and the first
    /// eXIf chunk (before or after the image data, as the decoder reads it), with its
    /// orientation.
    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try Self.readHeader(data).header
    }

    /// The header, and the chunk list read for it (the APNG structure), which a decode
    /// reads too.
    static func readHeader(_ data: Data) throws(ImageDecodingError) -> (header: ImageHeader, structure: APNGStructure?) {
        // The signature, then IHDR: length, type, width, height, depth, colour type,
        // compression, filter, interlace (big-endian).
        guard data.count >= 29 else { throw ImageDecodingError(.truncated, "the PNG ends inside its header", format: .png) }
        let bytes = [UInt8](data.prefix(29))
        guard ImageFormat.sniff(data) == .png, bytes[12...15].elementsEqual("IHDR".utf8) else {
            throw ImageDecodingError(.invalidHeader, "the file does not start with a PNG signature and IHDR", format: .png)
        }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let size = PixelSize(width: word(16), height: word(20))
        guard size.width > 0, size.height > 0 else {
            throw ImageDecodingError(.invalidDimensions, "the PNG is \(size)", format: .png)
        }
        let structure = APNGStructure(data)
        let frames = structure.map { $0.isAnimated ? $0.frames.count : 1 } ?? 1
        let exif = (structure?.exif ?? PNGExifChunk.find(in: data)).map {
            Data(data[(data.startIndex + $0.lowerBound)..<(data.startIndex + $0.upperBound)])
        }
        let orientation = exif.map { block in block.withUnsafeBytes { ExifOrientation.read(tiff: $0.bindMemory(to: UInt8.self)) } } ?? .up
        let header = ImageHeader(
            info: ImageInfo(format: .png, size: size, orientation: orientation, isProgressive: bytes[28] == 1),
            frameCount: frames, exif: exif)
        return (header, structure)
    }
}

extension GIFDecoder {
    /// The logical screen and the frames, counted by walking the blocks.
    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try Self.readHeader(data).header
    }

    /// The header, the logical screen and the survey of every frame with no limits, which
    /// a decode's survey is narrowed from (``GIFSurvey/narrowed(to:screen:)``).
    static func readHeader(_ data: Data) throws(ImageDecodingError) -> (header: ImageHeader, screen: PixelSize, survey: GIFSurvey) {
        guard data.count >= 10 else { throw ImageDecodingError(.truncated, "the GIF ends inside its header", format: .gif) }
        guard ImageFormat.sniff(data) == .gif else {
            throw ImageDecodingError(.invalidHeader, "the file does not start with a GIF signature", format: .gif)
        }
        let bytes = [UInt8](data.prefix(10))
        let screen = PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        guard screen.pixelCount > 0 else {
            throw ImageDecodingError(.invalidDimensions, "the GIF's screen is \(screen)", format: .gif)
        }
        // Counting only: the limits are the caller's to apply to what this returns.
        let counting = DecodeOptions(maxPixelCount: .max, maxFrameCount: .max)
        let survey = try GIFSurvey(data: data, screen: screen, options: counting)
        let header = ImageHeader(
            info: ImageInfo(format: .gif, size: screen, isProgressive: survey.firstFrameInterlaced),
            frameCount: max(1, survey.frameCount))
        return (header, screen, survey)
    }
}
