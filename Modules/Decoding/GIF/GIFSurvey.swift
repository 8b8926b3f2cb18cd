import Foundation
import WebImageCore

/// One pass over a GIF's records that decodes nothing (LZW data is skipped block by
/// block with `DGifGetCode`/`DGifGetCodeNext`), so that the limits are checked before
/// any canvas exists.
///
/// Counts the frames, checks each frame rectangle (unclipped: it is what the LZW data
/// must decode) and frames x screen pixels against ``DecodeOptions/maxPixelCount``, and
/// finds the loop count. With ``DecodeOptions/firstFrameOnly`` only the first frame
/// counts; the pass then stops at the second image descriptor, which it reads only to
/// learn that the file is animated. Damage and truncation end the pass quietly: the
/// decoding pass reports them where they are.
struct GIFSurvey {
    /// A survey with the logical screen it was made for.
    struct OfScreen {
        let screen: PixelSize
        let survey: GIFSurvey
    }

    /// Image descriptors found (at most 2 with `firstFrameOnly`).
    var frameCount = 0
    /// The first NETSCAPE2.0 / ANIMEXTS1.0 loop count; 1 without one.
    var loopCount = 1
    /// Whether the first frame is interlaced.
    var firstFrameInterlaced = false
    /// The profile of the first ICCRGBG1012 application extension before the first
    /// frame (where writers put it); one after it is not looked for.
    var iccProfile: Data?
    /// What a frame source needs of each frame, in order (not kept with `firstFrameOnly`).
    var frames: [Frame] = []
    /// Pixels of the largest on-screen rectangle of a frame disposed to "restore to
    /// previous": the copy of the canvas a reader keeps for it is at most this big (0
    /// when no frame asks for one).
    var largestRestoredPixelCount = 0
    /// What a survey of the same file with other options is narrowed from
    /// (``narrowed(to:screen:)``): each frame's rectangle in pixels, for the frames whose
    /// descriptor was read; the frames seen before the loop count; the first frame's part
    /// of ``largestRestoredPixelCount``.
    private var descriptorPixelCounts: [Int] = []
    private var framesBeforeLoopCount = 0
    private var firstRestoredPixelCount = 0

    /// Where a frame's records start and what its graphic control says.
    struct Frame {
        /// The offset after the previous frame's data (after the header for the first):
        /// the walk to this frame's image descriptor, through its extensions, starts here.
        var recordsStart: Int
        var delayHundredths: Int
        /// Drawn on a cleared canvas: the first frame, a frame after one that covered the
        /// screen and was disposed to the background, or an opaque frame that covers the
        /// screen and does not ask for the canvas before it back.
        var startsClean: Bool
    }

    /// Surveys `data` with a handle of its own.
    ///
    /// - Throws: ``ImageDecodingError/Code/tooLarge`` when a frame, or all frames
    ///   together, are over the pixel limit, or there are more frames than
    ///   ``DecodeOptions/maxFrameCount``.
    init(data: Data, screen: PixelSize, options: DecodeOptions) throws(ImageDecodingError) {
        HeaderParseLog.record(.gif)
        guard let file = try? GIFFile(data: data) else { return }
        var sawLoopCount = false
        var control = GIFGraphicsControl.none
        var recordsStart = file.source.position
        var previousClearsScreen = false
        walk: while true {
            guard let record = try? file.nextRecord() else { break }
            switch record {
            case .trailer:
                break walk
            case .extension:
                guard let found = try? file.readExtension() else { break walk }
                if frameCount == 0, iccProfile == nil, let icc = found.iccProfile { iccProfile = icc }
                if let graphics = found.graphicsControl { control = graphics }
                if !sawLoopCount, let loops = found.loopCount {
                    loopCount = loops
                    sawLoopCount = true
                    framesBeforeLoopCount = frameCount
                }
            case .image:
                guard let frame = try? file.readImageDescriptor() else {
                    frameCount += 1
                    break walk
                }
                frameCount += 1
                descriptorPixelCounts.append(frame.pixelCount)
                if frameCount == 1 { firstFrameInterlaced = frame.isInterlaced }
                if options.firstFrameOnly && frameCount == 2 { break walk }
                try options.checkFrameCount(frameCount)
                try options.checkPixelCount(frame.pixelCount, "GIF frame \(frameCount - 1) (\(frame.width)x\(frame.height))")
                if !options.firstFrameOnly {
                    let (total, overflow) = screen.pixelCount.multipliedReportingOverflow(by: frameCount)
                    try options.checkPixelCount(overflow ? Int.max : total, "\(frameCount) GIF frames of \(screen)")
                }
                if control.disposal == .previous {
                    let onScreen = GIFRect(clipping: frame, to: screen).pixelCount
                    largestRestoredPixelCount = max(largestRestoredPixelCount, onScreen)
                    if frameCount == 1 { firstRestoredPixelCount = onScreen }
                }
                if !options.firstFrameOnly {
                    let coversScreen = frame.left == 0 && frame.top == 0 && frame.width >= screen.width && frame.height >= screen.height
                    let opaqueCover = coversScreen && control.transparentIndex == nil && control.disposal != .previous
                    frames.append(
                        Frame(
                            recordsStart: recordsStart, delayHundredths: control.delayHundredths,
                            startsClean: frameCount == 1 || previousClearsScreen || opaqueCover))
                    previousClearsScreen = coversScreen && control.disposal == .background
                }
                control = .none
                guard (try? file.skipImageData()) != nil else { break walk }
                recordsStart = file.source.position
            }
        }
    }
}

extension GIFSurvey {
    /// The survey a walk with `options` makes of the file this survey walked with no
    /// limits and every frame kept (a header read), found without walking again: `nil`
    /// where that walk throws, over a limit.
    func narrowed(to options: DecodeOptions, screen: PixelSize) -> GIFSurvey? {
        // The walk's checks, in the walk's order, on what the unlimited walk saw.
        for (index, pixels) in descriptorPixelCounts.enumerated() {
            let counted = index + 1
            if options.firstFrameOnly && counted == 2 { break }
            guard (try? options.checkFrameCount(counted)) != nil, (try? options.checkPixelCount(pixels, "a GIF frame")) != nil else {
                return nil
            }
            if !options.firstFrameOnly {
                let (total, overflow) = screen.pixelCount.multipliedReportingOverflow(by: counted)
                guard (try? options.checkPixelCount(overflow ? Int.max : total, "GIF frames")) != nil else { return nil }
            }
        }
        guard options.firstFrameOnly else { return self }
        // A first-frame walk stops at the second image descriptor and keeps no frame list.
        var first = self
        first.frameCount = min(frameCount, 2)
        first.frames = []
        first.largestRestoredPixelCount = firstRestoredPixelCount
        if framesBeforeLoopCount >= 2 { first.loopCount = 1 }
        return first
    }
}
