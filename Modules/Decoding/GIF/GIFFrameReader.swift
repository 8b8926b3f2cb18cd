import Foundation
import WebImageCore

/// Walks a GIF frame by frame and yields each frame composed on the logical screen.
///
/// Holds the compressed bytes, one canvas and, for a frame with disposal 3, a copy of
/// that frame's rectangle: never every frame. The limits are checked by a survey of the
/// records before the canvas is allocated (see ``GIFSurvey``).
///
/// End of data: when the data ends outside a frame's pixel data (the trailer, or the
/// extension before the next frame, is missing) the animation ends with the frames it
/// has. When it ends inside a frame, ``nextFrame()`` throws
/// ``ImageDecodingError/Code/truncated`` after yielding the frames before it, unless
/// every pixel of that frame was present (only its block terminator is missing).
/// Damaged LZW data, or LZW data that ends before the frame's last pixel while the file
/// goes on, is ``ImageDecodingError/Code/corrupt``.
///
/// Not `Sendable`: one task walks it. The frames it returns are `Sendable` values.
final class GIFFrameReader: ImageFrameReading {
    let info: ImageInfo
    let loopCount: Int
    /// Whether the file holds more than one frame (a single frame plays as a still,
    /// with a duration of zero).
    let isAnimated: Bool
    /// Frames the survey found, to reserve room for them.
    let expectedFrameCount: Int
    /// The ICC profile of the file's ICCRGBG1012 application extension, if any.
    let iccProfile: Data?
    var colorProfile: ColorProfile? { iccProfile.flatMap(DecodedImage.storedPixelProfile(embedding:)) }
    /// The survey of the records: frame count, loop count, where each frame starts.
    let survey: GIFSurvey

    // Internal rather than private for seeking (GIFFrameReader+Seeking.swift).
    let file: GIFFile
    private let options: DecodeOptions
    private let globalPalette: GIFPalette?
    var canvas: GIFCanvas?
    private var line: [UInt8] = []
    var yielded = 0
    var done = false
    var failure: ImageDecodingError?

    /// Opens `data`, checks the screen and surveys the frames, or takes `surveyed`: the
    /// survey of the same bytes with the same options, made for a memory estimate (used
    /// when its screen is this file's).
    ///
    /// - Throws: ``ImageDecodingError/Code/empty``, ``ImageDecodingError/Code/invalidHeader``,
    ///   ``ImageDecodingError/Code/invalidDimensions`` for a zero-sized screen,
    ///   ``ImageDecodingError/Code/tooLarge``, ``ImageDecodingError/Code/truncated``
    ///   when the data ends inside the header.
    init(data: Data, options: DecodeOptions, surveyed: GIFSurvey.OfScreen? = nil) throws(ImageDecodingError) {
        guard !data.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .gif) }
        do throws(ImageDecodingError) {
            file = try GIFFile(data: data)
            let screen = file.screenSize
            guard screen.width > 0, screen.height > 0 else {
                throw ImageDecodingError(.invalidDimensions, "the GIF logical screen is \(screen)")
            }
            try options.checkPixelCount(screen.pixelCount, "the GIF logical screen \(screen)")
            let survey: GIFSurvey
            if let surveyed, surveyed.screen == screen {
                survey = surveyed.survey
            } else {
                survey = try GIFSurvey(data: data, screen: screen, options: options)
            }
            info = ImageInfo(format: .gif, size: screen, orientation: .up, isProgressive: survey.firstFrameInterlaced)
            loopCount = survey.loopCount
            self.survey = survey
            isAnimated = survey.frameCount > 1
            expectedFrameCount = options.firstFrameOnly ? 1 : survey.frameCount
            iccProfile = survey.iccProfile
        } catch {
            throw error.withFormat(.gif)
        }
        self.options = options
        globalPalette = file.globalPalette
    }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard let drawn = try drawNextFrame(allowPartial: false), let canvas else { return nil }
        let bitmap = try canvas.snapshot { (live, allocation) throws(ImageDecodingError) in
            try PostProcessing.finish(live, options: options, orientation: .up, allocation: allocation).0
        }
        let stored = Duration.milliseconds(drawn.control.delayHundredths * 10)
        let duration = isAnimated ? ImageFrame.playbackDuration(forStoredDelay: stored) : .zero
        return ImageFrame(bitmap: bitmap, duration: duration, storedDelay: stored)
    }

    /// Draws the next frame on the canvas and makes no bitmap of it; `false` at the end
    /// of the animation. The work is the frame's own rectangle: decoding its rows, and
    /// the disposal of the frame before it.
    func drawNextFrameOnly() throws(ImageDecodingError) -> Bool {
        try drawNextFrame(allowPartial: false) != nil
    }

    /// The first frame drawn from as much data as there is, or `nil` before its first
    /// row. Rows not received are transparent; in an interlaced frame they repeat the
    /// nearest received row above, so the whole picture shows at low detail.
    ///
    /// - Throws: the errors of ``nextFrame()`` other than truncation.
    func partialFirstFrame() throws(ImageDecodingError) -> ImageBitmap? {
        precondition(yielded == 0, "only the first frame has a partial form")
        let drawn: DrawnFrame
        do {
            guard let found = try drawNextFrame(allowPartial: true) else { return nil }
            drawn = found
        } catch {
            if error.code == .truncated { return nil }
            throw error
        }
        guard let canvas, drawn.deliveredRows > 0 || drawn.isComplete else { return nil }
        if !drawn.isComplete && drawn.frame.isInterlaced {
            var delivered = [Bool](repeating: false, count: drawn.frame.height)
            for row in GIFInterlace.rowOrder(height: drawn.frame.height, interlaced: true).prefix(drawn.deliveredRows) {
                delivered[row] = true
            }
            canvas.fillUndelivered(drawn.rect, frameTop: drawn.frame.top, delivered: delivered)
        }
        return try canvas.snapshot { (live, allocation) throws(ImageDecodingError) in
            try PostProcessing.finish(live, options: options, orientation: .up, allocation: allocation).0
        }
    }

    // MARK: - Walking the records

    /// A frame drawn on the canvas.
    private struct DrawnFrame {
        var frame: GIFFrameDescriptor
        var rect: GIFRect
        var control: GIFGraphicsControl
        var deliveredRows: Int
        var isComplete: Bool
    }

    private func drawNextFrame(allowPartial: Bool) throws(ImageDecodingError) -> DrawnFrame? {
        if let failure { throw failure }
        if done { return nil }
        if options.firstFrameOnly && yielded == 1 {
            done = true
            return nil
        }
        do throws(ImageDecodingError) {
            var control = GIFGraphicsControl.none
            while true {
                let record: GIFRecord
                do {
                    record = try file.nextRecord()
                } catch {
                    guard error.code == .truncated else { throw error }
                    return try endOfData(atTrailer: false)
                }
                switch record {
                case .trailer:
                    return try endOfData(atTrailer: true)
                case .extension:
                    let found: GIFExtension
                    do {
                        found = try file.readExtension()
                    } catch {
                        guard error.code == .truncated else { throw error }
                        return try endOfData(atTrailer: false)
                    }
                    if let graphics = found.graphicsControl { control = graphics }
                case .image:
                    let frame = try file.readImageDescriptor()
                    let drawn = try draw(frame, control: control, allowPartial: allowPartial)
                    yielded += 1
                    return drawn
                }
            }
        } catch {
            let error = error.withFormat(.gif)
            failure = error
            done = true
            throw error
        }
    }

    private func endOfData(atTrailer: Bool) throws(ImageDecodingError) -> DrawnFrame? {
        done = true
        guard yielded > 0 else {
            throw atTrailer
                ? ImageDecodingError(.corrupt, "the GIF has no image", format: .gif)
                : ImageDecodingError(.truncated, "the data ends before the first GIF frame", format: .gif)
        }
        return nil
    }

    // MARK: - Drawing one frame

    private func draw(_ frame: GIFFrameDescriptor, control: GIFGraphicsControl, allowPartial: Bool) throws(ImageDecodingError) -> DrawnFrame
    {
        // The survey stops at damage, so frames past it are checked here as well.
        try options.checkFrameCount(yielded + 1)
        try options.checkPixelCount(frame.pixelCount, "GIF frame \(yielded) (\(frame.width)x\(frame.height))")
        let screen = info.size
        let (total, overflow) = screen.pixelCount.multipliedReportingOverflow(by: yielded + 1)
        try options.checkPixelCount(overflow ? Int.max : total, "\(yielded + 1) GIF frames of \(screen)")

        let canvas = try existingCanvas()
        let rect = canvas.clip(frame)
        canvas.beginFrame(rect, disposal: control.disposal)
        defer { canvas.endFrame(rect, disposal: control.disposal) }

        let source = file.source
        let chain = GIFBlockChain(in: source, from: source.position)
        switch chain {
        case .complete(let end): source.setFence(at: end, terminator: false)
        case .cut(let wholeBlocksEnd): source.setFence(at: wholeBlocksEnd, terminator: true)
        }
        defer { source.removeFence() }
        let isCut = chain.isCut
        // The file ends inside this frame's data: nothing can follow it, and the bytes
        // after the last whole block are LZW data, not records (read as such they would
        // make up frames).
        if isCut { done = true }

        guard frame.width > 0, frame.height > 0 else {
            // Nothing to draw, but the (empty) LZW data still has to be stepped over.
            do {
                try file.skipImageData()
            } catch {
                throw frameError(error.message, frame: frame, isCut: isCut)
            }
            return DrawnFrame(frame: frame, rect: rect, control: control, deliveredRows: 0, isComplete: true)
        }

        if line.count < frame.width { line = [UInt8](repeating: 0, count: frame.width) }
        let order = GIFInterlace.rowOrder(height: frame.height, interlaced: frame.isInterlaced)
        let palette = frame.localPalette ?? globalPalette ?? .missing
        var delivered = 0
        var failedCode: Int32?
        palette.pixels.withUnsafeBufferPointer { colors in
            line.withUnsafeMutableBufferPointer { indices in
                for row in order {
                    if let code = file.readLine(into: indices.baseAddress!, count: frame.width) {
                        failedCode = code
                        return
                    }
                    canvas.draw(
                        row: row, indices: indices.baseAddress!, frame: frame, rect: rect,
                        palette: colors.baseAddress!, transparentIndex: control.transparentIndex)
                    delivered += 1
                }
            }
        }
        guard let failedCode else {
            return DrawnFrame(frame: frame, rect: rect, control: control, deliveredRows: delivered, isComplete: true)
        }
        if isCut && allowPartial {
            return DrawnFrame(frame: frame, rect: rect, control: control, deliveredRows: delivered, isComplete: false)
        }
        let detail = GIFFile.error(code: failedCode, what: "decoding", ranPastEnd: false).message
        throw frameError("\(detail) (after \(delivered) of \(frame.height) rows)", frame: frame, isCut: isCut)
    }

    /// The canvas, made transparent on first use.
    func existingCanvas() throws(ImageDecodingError) -> GIFCanvas {
        if let canvas { return canvas }
        let made = try GIFCanvas(
            size: info.size, frameAllocation: options.frameAllocation(canvas: info.size, frameCount: expectedFrameCount))
        canvas = made
        return made
    }

    /// Truncation when the file ends inside the frame's data, damage otherwise.
    private func frameError(_ detail: String, frame: GIFFrameDescriptor, isCut: Bool) -> ImageDecodingError {
        isCut
            ? ImageDecodingError(.truncated, "the data ends inside GIF frame \(yielded)", format: .gif)
            : ImageDecodingError(.corrupt, "GIF frame \(yielded) is damaged: \(detail)", format: .gif)
    }
}
