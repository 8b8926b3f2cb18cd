import Foundation
import WebImageCore

// What each built-in decoder holds at its peak, from the headers alone, for a memory
// budget to reserve before the decode starts. Estimates, rounded up: the decoded
// pixels, the full-size image a downsampling decoder resamples from, an animation's
// canvas and every frame (the first only, for one composed on demand). A file over the
// options' pixel limits estimates 0: its decode fails from the same headers before
// allocating, so it need not wait for memory.
// `prepareDecode(_:options:)` (PreparedDecodes.swift) reads these headers once for both
// the estimate and the decode.

extension JPEGDecoder {
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        data.withUnsafeBytes { bytes -> Int? in
            // The segment walk answers for every file libjpeg reads; libjpeg is asked only
            // when the walk cannot tell.
            guard let header = Self.scannedHeader(bytes) ?? Self.libjpegHeader(bytes) else { return nil }
            return Self.estimatedMemory(header: header, options: options)
        }
    }

    /// The estimate from a frame header already read.
    static func estimatedMemory(header: JPEGHeader, options: DecodeOptions) -> Int {
        guard let plan = try? JPEGScalePlan(header: header, options: options) else { return 0 }
        let bytesPerPixel = plan.wantsGray ? 1 : 4
        let decoded = JPEGScalePlan.scaled(header.size, eighths: plan.scaleEighths)
        var total = decoded.pixelCount * bytesPerPixel
        if plan.targetSize != decoded { total += plan.targetSize.pixelCount * bytesPerPixel }
        // libjpeg keeps a multi-scan file's DCT coefficients, two bytes per sample,
        // about three samples a pixel at full size.
        if header.hasMultipleScans { total += header.size.pixelCount * 6 }
        return total
    }

    /// The frame header as the segment walk reads it.
    static func scannedHeader(_ bytes: UnsafeRawBufferPointer) -> JPEGHeader? {
        HeaderParseLog.record(.jpeg)
        return JPEGHeaderScan(bytes).map {
            JPEGHeader(size: $0.size, colorModel: $0.colorModel, isProgressive: $0.isProgressive, hasMultipleScans: $0.hasMultipleScans)
        }
    }

    /// The frame header as libjpeg reads it.
    static func libjpegHeader(_ bytes: UnsafeRawBufferPointer) -> JPEGHeader? {
        HeaderParseLog.record(.jpeg)
        guard let engine = try? JPEGDecompressor(incremental: false), (try? engine.borrow(bytes)) != nil,
            (try? engine.step()) == .headerReady
        else { return nil }
        return engine.header
    }
}

extension PNGDecoder {
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        Self.estimatedMemory(decoding: data, options: options) { APNGStructure(data) }
    }

    /// The estimate, with the chunk list read by `structure` (called only once IHDR
    /// shows a size within the limits).
    static func estimatedMemory(decoding data: Data, options: DecodeOptions, structure: () -> APNGStructure?) -> Int? {
        // The signature, then IHDR: length, type, width, height (big-endian).
        guard data.count >= 24 else { return nil }
        let bytes = [UInt8](data.prefix(24))
        guard bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let size = PixelSize(width: word(16), height: word(20))
        guard size.width > 0, size.height > 0, size.pixelCount <= options.maxPixelCount else { return 0 }
        let bytesPerPixel = options.pixelFormat.bytesPerPixel
        let target = options.targetSize(for: size)
        // A 16-bit interlaced file converted before its samples are reduced merges its
        // passes in a 16-bit copy (bit depth at byte 24, interlace method at byte 28); an
        // animation, one frame's at a time, none larger than the canvas.
        let wideCopy = data.count > 28 && data[data.startIndex + 24] == 16 && data[data.startIndex + 28] == 1 ? size.pixelCount * 8 : 0
        let still = size.pixelCount * bytesPerPixel + (target == size ? 0 : target.pixelCount * bytesPerPixel) + wideCopy
        // An animation (a plain PNG's chunk list is read up to its first IDAT): every frame kept
        // at the output size, beside the canvas and one frame's pixels at full size.
        guard let animation = structure(), animation.isAnimated else { return still }
        var frames = options.firstFrameOnly ? 1 : animation.frames.count
        // Composed on demand: the decode makes the first frame only.
        if !options.appliesOrientation, !options.frameBuffering.decodesWhole(frameCount: frames, of: target) { frames = 1 }
        return frames * target.pixelCount * bytesPerPixel + 2 * size.pixelCount * 4 + wideCopy
    }
}

extension GIFDecoder {
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        guard let screen = Self.logicalScreen(data) else { return nil }
        // The survey walks the blocks without decoding (linear in the file) and checks
        // the same limits the decode will.
        return Self.estimatedMemory(screen: screen, survey: try? GIFSurvey(data: data, screen: screen, options: options), options: options)
    }

    /// The logical screen's size from the first ten bytes, or `nil` when there are
    /// fewer or it has no pixels.
    static func logicalScreen(_ data: Data) -> PixelSize? {
        // "GIF89a", then the logical screen's width and height (little-endian).
        guard data.count >= 10 else { return nil }
        let bytes = [UInt8](data.prefix(10))
        let screen = PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        return screen.pixelCount > 0 ? screen : nil
    }

    /// The estimate from the survey (`nil`: the survey refused the file over the limits,
    /// so the decode fails before allocating, and the estimate is 0).
    static func estimatedMemory(screen: PixelSize, survey: GIFSurvey?, options: DecodeOptions) -> Int {
        guard let survey else { return 0 }
        var frames = options.firstFrameOnly ? 1 : max(1, survey.frameCount)
        let target = options.targetSize(for: screen)
        // Composed on demand: the decode makes the first frame only.
        if survey.frames.count == frames, !options.frameBuffering.decodesWhole(frameCount: frames, of: target) { frames = 1 }
        // What a reader holds (the canvas, the copy of the largest on-screen rectangle a
        // "restore to previous" frame needs), then every frame.
        return GIFFrameReader.heldByteCount(screen: screen, survey: survey)
            + frames * target.pixelCount * options.pixelFormat.bytesPerPixel
    }
}
