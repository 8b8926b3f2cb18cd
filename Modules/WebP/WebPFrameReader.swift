internal import CLibWebP
import Foundation
import WebImageCore
import WebImageDecoding

/// The frames of an animated WebP, composed by libwebp's animation decoder
/// (`WebPAnimDecoder`: disposal and blending applied, each frame the full canvas).
///
/// Holds a copy of the compressed file (libwebp reads it for as long as the decoder
/// lives) and libwebp's two canvases; every frame it returns is a copy of its own.
final class WebPFrameReader: ImageFrameReading {
    let info: ImageInfo
    let loopCount: Int
    /// Frames the file has; `nextFrame` stops after one when only the first is asked.
    let frameCount: Int
    private let options: DecodeOptions
    private let file: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    private var previousTimestamp: Int32 = 0
    /// The profile of the file's `ICCP` chunk (see `WebPMetadata`), when it describes the pixels.
    let colorProfile: ColorProfile?
    private var returned = 0
    /// How the frames kept are allocated: not prefaulted, and mapped on their own when
    /// the animation is long, so that a freed long animation goes back to the system at
    /// once (`PixelAllocation.animationFrames`).
    private let frameAllocation: PixelAllocation

    /// Parses the animation and checks it against `options` before any frame exists.
    ///
    /// - Throws: `truncated` when the file ends before its last frame's data, `corrupt`
    ///   or `invalidHeader` when libwebp refuses it, `tooLarge` when the canvas, or the
    ///   canvas times the frames, is over `DecodeOptions.maxPixelCount`, or when there
    ///   are more frames than `DecodeOptions.maxFrameCount`.
    init(data: Data, header: WebPHeader, orientation: ImageOrientation, options: DecodeOptions) throws(ImageDecodingError) {
        try options.checkPixelCount(header.size.pixelCount, "the WebP canvas \(header.size)")
        colorProfile = WebPMetadata.iccProfile(data).flatMap(DecodedImage.storedPixelProfile(embedding:))
        let file = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { file.copyMemory(from: $0) }
        var animationOptions = WebPAnimDecoderOptions()
        var webpData = WebPData(bytes: file.baseAddress?.assumingMemoryBound(to: UInt8.self), size: file.count)
        guard WebPAnimDecoderOptionsInit(&animationOptions) != 0 else {
            file.deallocate()
            throw ImageDecodingError(.unsupported, "this libwebp's animation interface does not match its header", format: .webp)
        }
        animationOptions.color_mode = MODE_RGBA
        animationOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &animationOptions) else {
            let error = WebPFrameReader.whyNotParsed(UnsafeRawBufferPointer(file))
            file.deallocate()
            throw error
        }
        var animation = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &animation) != 0 else {
            WebPAnimDecoderDelete(decoder)
            file.deallocate()
            throw ImageDecodingError(.corrupt, "libwebp could not read the animation's header", format: .webp)
        }
        self.file = file
        self.decoder = decoder
        frameCount = Int(animation.frame_count)
        loopCount = Int(animation.loop_count)
        self.options = options
        info = ImageInfo(format: .webp, size: header.size, orientation: orientation)
        let frames = options.firstFrameOnly ? 1 : frameCount
        // Set before the checks below: once every property is set, a throw still runs
        // `deinit`'s cleanup.
        frameAllocation = options.frameAllocation(canvas: header.size, frameCount: frames)
        let (pixels, overflow) = header.size.pixelCount.multipliedReportingOverflow(by: frames)
        try options.checkFrameCount(frames)
        try options.checkPixelCount(overflow ? .max : pixels, "\(frames) frames of \(header.size)")
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        file.deallocate()
    }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard returned < (options.firstFrameOnly ? 1 : frameCount), WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw ImageDecodingError(.corrupt, "frame \(returned + 1) of the WebP animation is damaged", format: .webp)
        }
        returned += 1
        let stored = Duration.milliseconds(Int(timestamp - previousTimestamp))
        previousTimestamp = timestamp
        return try WebPCanvasFrame.make(
            from: canvas, size: info.size, options: options, allocation: frameAllocation, storedDelay: stored,
            animated: frameCount > 1)
    }

    /// Why libwebp's demuxer refused the whole file: it stops early on a file cut short.
    static func whyNotParsed(_ bytes: UnsafeRawBufferPointer) -> ImageDecodingError {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSE_ERROR
        if let demuxer = WebPDemuxPartial(&data, &state) { WebPDemuxDelete(demuxer) }
        switch state {
        case WEBP_DEMUX_PARSING_HEADER, WEBP_DEMUX_PARSED_HEADER:
            return ImageDecodingError(.truncated, "the data ends before the animation's last frame", format: .webp)
        default:
            return ImageDecodingError(.corrupt, "libwebp refused the animation's chunks", format: .webp)
        }
    }
}
