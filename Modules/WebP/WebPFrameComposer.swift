internal import CLibWebP
import Foundation
import WebImageCore
import WebImageDecoding

/// The frames of an animated WebP composed one at a time on a canvas of its own, by the
/// rules libwebp's animation decoder follows (its key frames, its integer alpha blend),
/// so that every frame has the same pixels as `WebPFrameReader`'s.
///
/// libwebp's `WebPAnimDecoder` only walks forward from the first frame and keeps its
/// state private; this reader decodes each frame's bitstream with `WebPDecode` and
/// composes it itself, so that its state (the canvas the next frame is drawn on) can be
/// saved and restored, as a frame source seeking needs (`WebPFrameComposer+Seeking`).
///
/// Holds a copy of the compressed file, the frame records and two canvases.
final class WebPFrameComposer {
    let info: ImageInfo
    let loopCount: Int
    let records: [WebPFrameRecord]
    /// Whether each frame is drawn on a cleared canvas.
    let keyFrames: [Bool]
    private let options: DecodeOptions
    private let frameAllocation: PixelAllocation
    private let file: UnsafeMutableRawBufferPointer
    /// The frame being composed.
    private let canvas: UnsafeMutableRawBufferPointer
    /// The canvas after the last frame's disposal: what the next frame is drawn on.
    let disposed: UnsafeMutableRawBufferPointer
    /// The index of the frame `composeNext` makes.
    var position = 0

    var frameCount: Int { records.count }
    var storedDelays: [Duration] { records.map(\.storedDelay) }
    var canvasByteCount: Int { disposed.count }

    /// Parses the animation and checks it against `options` before any canvas exists.
    ///
    /// - Throws: `truncated` when the file ends before its last frame's data, `corrupt`
    ///   when libwebp refuses it or a frame lies outside the canvas, `tooLarge` when the
    ///   canvas, or the canvas times the frames, is over `DecodeOptions.maxPixelCount`,
    ///   or when there are more frames than `DecodeOptions.maxFrameCount`.
    init(data: Data, header: WebPHeader, orientation: ImageOrientation, options: DecodeOptions) throws(ImageDecodingError) {
        try options.checkPixelCount(header.size.pixelCount, "the WebP canvas \(header.size)")
        let file = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { file.copyMemory(from: $0) }
        let scanned: (records: [WebPFrameRecord], loopCount: Int)
        do {
            scanned = try WebPFrameRecord.scan(UnsafeRawBufferPointer(file), canvas: header.size, options: options)
        } catch {
            file.deallocate()
            throw error
        }
        self.file = file
        records = scanned.records
        loopCount = scanned.loopCount
        keyFrames = WebPFrameRecord.keyFrames(records, canvas: header.size)
        info = ImageInfo(format: .webp, size: header.size, orientation: orientation)
        self.options = options
        frameAllocation = options.frameAllocation(canvas: header.size, frameCount: scanned.records.count)
        canvas = .allocate(byteCount: header.size.pixelCount * 4, alignment: 16)
        disposed = .allocate(byteCount: header.size.pixelCount * 4, alignment: 16)
        disposed.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        file.deallocate()
        canvas.deallocate()
        disposed.deallocate()
    }

    /// Composes frame `position` and moves to the next: one frame decode.
    ///
    /// - Throws: `corrupt` (or what libwebp reports) when the frame's data is damaged;
    ///   the state is then the one before the frame.
    func composeNext() throws(ImageDecodingError) -> ImageFrame {
        let record = try drawNext()
        return try WebPCanvasFrame.make(
            from: canvas.baseAddress!.assumingMemoryBound(to: UInt8.self), size: info.size, options: options,
            allocation: frameAllocation, storedDelay: record.storedDelay, animated: records.count > 1)
    }

    /// Composes frame `position` on the canvas, makes no bitmap of it, and moves to the
    /// next: how a seek passes the frames before the one asked for.
    func skipNext() throws(ImageDecodingError) {
        _ = try drawNext()
    }

    /// Draws frame `position` on the canvas and disposes of it for the next; returns
    /// its record.
    private func drawNext() throws(ImageDecodingError) -> WebPFrameRecord {
        guard position < records.count else {
            throw ImageDecodingError(.truncated, "the WebP animation has no frame \(position)", format: .webp)
        }
        let record = records[position]
        let isKey = keyFrames[position]
        if isKey {
            canvas.initializeMemory(as: UInt8.self, repeating: 0)
        } else {
            canvas.copyMemory(from: UnsafeRawBufferPointer(disposed))
        }
        try decode(record)
        if !isKey && record.blends {
            blend(record, over: records[position - 1])
        }
        disposed.copyMemory(from: UnsafeRawBufferPointer(canvas))
        if record.disposesToBackground { clear(record) }
        position += 1
        return record
    }

    /// Decodes the frame's bitstream straight into its rectangle of the canvas.
    private func decode(_ record: WebPFrameRecord) throws(ImageDecodingError) {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageDecodingError(.unsupported, "this libwebp's decoder interface does not match its header", format: .webp)
        }
        let stride = info.size.width * 4
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = (canvas.baseAddress! + record.y * stride + record.x * 4).assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(stride)
        // Up to the rectangle's last pixel: libwebp refuses a bitstream that would need more.
        config.output.u.RGBA.size = stride * (record.height - 1) + record.width * 4
        let input = UnsafeRawPointer(file.baseAddress! + record.data.lowerBound).assumingMemoryBound(to: UInt8.self)
        let status = WebPDecode(input, record.data.count, &config)
        if let error = WebPStatus.error(status) {
            throw ImageDecodingError(error.code, "frame \(position + 1) of the WebP animation: \(error.message)", format: .webp)
        }
    }

    /// Blends the frame's translucent pixels over the canvas it was drawn on. Where the
    /// previous frame's disposal cleared its rectangle, the canvas is transparent and the
    /// pixels stay as decoded.
    private func blend(_ record: WebPFrameRecord, over previous: WebPFrameRecord) {
        let width = info.size.width
        let top = canvas.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let under = UnsafePointer(disposed.baseAddress!.assumingMemoryBound(to: UInt8.self))
        let right = record.x + record.width
        for y in record.y..<(record.y + record.height) {
            var spans = [record.x..<right]
            if previous.disposesToBackground, y >= previous.y, y < previous.y + previous.height,
                record.x < previous.x + previous.width, right > previous.x
            {
                spans = [record.x..<max(record.x, previous.x), min(right, previous.x + previous.width)..<right]
            }
            for span in spans {
                for x in span {
                    let offset = (y * width + x) * 4
                    Self.blendPixel(top + offset, over: under + offset)
                }
            }
        }
    }

    /// libwebp's integer blend of straight-alpha RGBA: an opaque pixel stays, a fully
    /// transparent one shows what is under it.
    static func blendPixel(_ top: UnsafeMutablePointer<UInt8>, over under: UnsafePointer<UInt8>) {
        let topAlpha = UInt32(top[3])
        guard topAlpha != 255 else { return }
        guard topAlpha != 0 else {
            top.update(from: under, count: 4)
            return
        }
        let underFactor = (UInt32(under[3]) * (256 - topAlpha)) >> 8
        let alpha = topAlpha + underFactor
        let scale = (UInt32(1) << 24) / alpha
        for channel in 0..<3 {
            let sum = UInt32(top[channel]) * topAlpha + UInt32(under[channel]) * underFactor
            top[channel] = UInt8(truncatingIfNeeded: (sum &* scale) >> 24)
        }
        top[3] = UInt8(truncatingIfNeeded: alpha)
    }

    /// Clears the frame's rectangle of the canvas the next frame is drawn on.
    private func clear(_ record: WebPFrameRecord) {
        let stride = info.size.width * 4
        for y in record.y..<(record.y + record.height) {
            (disposed.baseAddress! + y * stride + record.x * 4).initializeMemory(as: UInt8.self, repeating: 0, count: record.width * 4)
        }
    }
}
