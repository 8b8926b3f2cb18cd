import Foundation
import WebImageCore

/// The frames of an animated PNG, composed on the canvas one at a time: each frame's
/// data is made into a plain PNG (``APNGFrameFile``) that libpng decodes, then drawn
/// with its blend operation after the previous frame's dispose operation.
///
/// Holds the file, the canvas and one frame's pixels; each frame it returns is a copy.
///
/// With `wideRows`, a 16-bit file's frames are converted as libpng hands over their rows,
/// before they are reduced to 8 bits and drawn: the canvas holds the target's colours.
final class APNGFrameReader: ImageFrameReading {
    let info: ImageInfo
    var loopCount: Int { structure.plays }
    let structure: APNGStructure
    /// The colour space of the frames: the file's colour chunks' (see `PNGColorChunks`),
    /// or the target of `wideRows`.
    let colorProfile: ColorProfile?
    /// The transform of a 16-bit file's rows and the space it converts to.
    let wideRows: PNGDecoder.WideRows?
    private let file: Data
    private let options: DecodeOptions
    private var canvas: APNGCanvas
    private var next = 0
    /// Which frames are drawn on a cleared canvas (see `startsClean(_:)`).
    private let cleanStarts: [Bool]
    private let frameLimit: Int
    /// How the frames kept are allocated (`PixelAllocation.animationFrames`).
    private let frameAllocation: PixelAllocation

    /// Checks the animation against `options` before any frame is decoded.
    ///
    /// - Throws: `tooLarge` when the canvas times the frames (one with
    ///   `DecodeOptions.firstFrameOnly`) is over `DecodeOptions.maxPixelCount`, or the
    ///   frames are more than `DecodeOptions.maxFrameCount`.
    init(
        file: Data, structure: APNGStructure, orientation: ImageOrientation, options: DecodeOptions,
        wideRows: PNGDecoder.WideRows? = nil
    ) throws(ImageDecodingError) {
        let size = structure.canvas
        guard size.width > 0, size.height > 0 else {
            throw ImageDecodingError(.invalidDimensions, "the PNG image is \(size)", format: .png)
        }
        frameLimit = options.firstFrameOnly ? 1 : structure.frames.count
        try options.checkFrameCount(frameLimit)
        let (pixels, overflow) = size.pixelCount.multipliedReportingOverflow(by: frameLimit)
        try options.checkPixelCount(overflow ? .max : pixels, "\(frameLimit) frames of \(size)")
        frameAllocation = options.frameAllocation(canvas: size, frameCount: frameLimit)
        self.file = file
        self.structure = structure
        self.wideRows = wideRows
        colorProfile = wideRows.map(\.target) ?? PNGColorChunks.storedPixelProfile(file)
        self.options = options
        canvas = APNGCanvas(size: size)
        cleanStarts = Self.cleanStarts(structure)
        info = ImageInfo(format: .png, size: size, orientation: orientation)
    }

    /// Frames drawn on a cleared canvas: the first; one after a frame that covered the
    /// canvas and was disposed to the background (the first frame's "previous" is the
    /// background); and one that covers the canvas, replaces what it covers ("source"
    /// blending) and does not ask for the canvas before it back.
    private static func cleanStarts(_ structure: APNGStructure) -> [Bool] {
        let canvas = structure.canvas
        func covers(_ frame: APNGStructure.Frame) -> Bool {
            frame.x == 0 && frame.y == 0 && frame.width == canvas.width && frame.height == canvas.height
        }
        return structure.frames.indices.map { index in
            guard index > 0 else { return true }
            let frame = structure.frames[index]
            let previous = structure.frames[index - 1]
            let previousClears = covers(previous) && (previous.dispose == 1 || (index == 1 && previous.dispose == 2))
            return previousClears || (covers(frame) && frame.blend == 0 && frame.dispose != 2)
        }
    }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard next < frameLimit else { return nil }
        let frame = structure.frames[next]
        let frameFile = APNGFrameFile.make(frame, of: structure, in: file)
        let reader = PNGReader(options: DecodeOptions(maxPixelCount: options.maxPixelCount), wideRows: wideRows?.transform)
        try reader.feed(frameFile)
        try reader.requireComplete()
        guard let pixels = reader.bitmap(), pixels.width == frame.width, pixels.height == frame.height else {
            throw ImageDecodingError(.corrupt, "frame \(next + 1) of the APNG animation has no pixels", format: .png)
        }
        canvas.draw(frame, pixels: pixels, isFirst: next == 0)
        next += 1
        let size = structure.canvas
        let composed = canvas.pixels
        let snapshot = try ImageBitmap(
            width: size.width, height: size.height, pixelFormat: .rgba8,
            allocation: options.allocation(ofDecoded: size, frames: frameAllocation)
        ) { out, _ in
            composed.withUnsafeBytes { out.copyMemory(from: $0) }
        }
        let bitmap = try PostProcessing.finish(snapshot, options: options, orientation: .up, allocation: frameAllocation).0
        // One frame (a hidden default image and a single frame) is a still, as for GIF.
        let animated = structure.frames.count > 1
        let stored = animated ? frame.delay : .zero
        return ImageFrame(
            bitmap: bitmap, duration: animated ? ImageFrame.playbackDuration(forStoredDelay: stored) : .zero, storedDelay: stored)
    }
}

/// An APNG reader put back to an earlier frame: its state is the canvas (a value: a
/// snapshot shares its pixels until the next frame is drawn) and the next frame's index.
extension APNGFrameReader: FrameComposing {
    struct Checkpoint {
        let index: Int
        let canvas: APNGCanvas
    }

    var position: Int { next }

    /// The canvas, and the copy of the largest region a "previous" dispose operation
    /// keeps (the first frame's is "background": nothing is kept for it).
    var heldByteCount: Int {
        let restored = structure.frames.dropFirst().filter { $0.dispose == 2 }.map { $0.width * $0.height }.max() ?? 0
        return (structure.canvas.pixelCount + restored) * 4
    }

    func startsClean(_ index: Int) -> Bool { cleanStarts[index] }

    func restart(at index: Int) throws(ImageDecodingError) {
        precondition(startsClean(index), "APNG frame \(index) needs the frames before it")
        canvas = APNGCanvas(size: structure.canvas)
        next = index
    }

    func checkpoint() -> Checkpoint? { Checkpoint(index: next, canvas: canvas) }

    func byteCount(of checkpoint: Checkpoint) -> Int { checkpoint.canvas.byteCount }

    func restore(_ checkpoint: Checkpoint) throws(ImageDecodingError) {
        canvas = checkpoint.canvas
        next = checkpoint.index
    }

    func composeNext() throws(ImageDecodingError) -> ImageFrame {
        guard let frame = try nextFrame() else {
            throw ImageDecodingError(.truncated, "the APNG animation has no frame \(next)", format: .png)
        }
        return frame
    }
}
