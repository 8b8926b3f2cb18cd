internal import CLibWebP
import WebImageCore

/// What the demuxer read of one frame of an animation: its rectangle on the canvas, how
/// it is drawn and disposed, and where its compressed data lies in the file.
struct WebPFrameRecord {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var hasAlpha: Bool
    /// Drawn over the canvas (alpha-blended) rather than replacing the rectangle.
    var blends: Bool
    /// Its rectangle is cleared to transparent before the next frame is drawn.
    var disposesToBackground: Bool
    var storedDelay: Duration
    /// Offsets of the frame's image data (alpha and bitstream) in the file.
    var data: Range<Int>

    func covers(_ canvas: PixelSize) -> Bool {
        x == 0 && y == 0 && width == canvas.width && height == canvas.height
    }

    /// Every frame of a parsed animation, in order, with the file's loop count.
    ///
    /// Reading a frame's record costs a walk of libwebp's frame list, so the scan takes
    /// time quadratic in the frame count, which `DecodeOptions.maxFrameCount` bounds (it
    /// is checked first).
    ///
    /// - Throws: `truncated` or `corrupt` when libwebp refuses the file, `tooLarge` over
    ///   the frame count or the canvas times the frames, `corrupt` for a frame outside
    ///   the canvas.
    static func scan(_ bytes: UnsafeRawBufferPointer, canvas: PixelSize, options: DecodeOptions) throws(ImageDecodingError)
        -> (records: [WebPFrameRecord], loopCount: Int)
    {
        guard let base = bytes.baseAddress else { throw ImageDecodingError(.empty, "no bytes to decode", format: .webp) }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { throw WebPFrameReader.whyNotParsed(bytes) }
        defer { WebPDemuxDelete(demuxer) }
        guard Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)) == canvas.width,
            Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)) == canvas.height
        else { throw ImageDecodingError(.corrupt, "the animation's canvas is not the header's \(canvas)", format: .webp) }
        let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        try options.checkFrameCount(count)
        let (pixels, overflow) = canvas.pixelCount.multipliedReportingOverflow(by: count)
        try options.checkPixelCount(overflow ? .max : pixels, "\(count) frames of \(canvas)")
        var records: [WebPFrameRecord] = []
        records.reserveCapacity(count)
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
            throw ImageDecodingError(.corrupt, "the WebP animation has no frames", format: .webp)
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            let record = WebPFrameRecord(
                x: Int(iterator.x_offset), y: Int(iterator.y_offset), width: Int(iterator.width), height: Int(iterator.height),
                hasAlpha: iterator.has_alpha != 0, blends: iterator.blend_method == WEBP_MUX_BLEND,
                disposesToBackground: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND,
                storedDelay: .milliseconds(Int(iterator.duration)),
                data: offsets(of: iterator.fragment, in: bytes))
            guard record.x >= 0, record.y >= 0, record.width > 0, record.height > 0,
                record.x + record.width <= canvas.width, record.y + record.height <= canvas.height, !record.data.isEmpty
            else {
                throw ImageDecodingError(.corrupt, "frame \(records.count + 1) lies outside the canvas \(canvas)", format: .webp)
            }
            records.append(record)
        } while WebPDemuxNextFrame(&iterator) != 0
        return (records, Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)))
    }

    /// Where `fragment` lies in `bytes`; empty when it is not inside them.
    private static func offsets(of fragment: WebPData, in bytes: UnsafeRawBufferPointer) -> Range<Int> {
        guard let start = fragment.bytes, let base = bytes.baseAddress else { return 0..<0 }
        let offset = base.distance(to: UnsafeRawPointer(start))
        guard offset >= 0, fragment.size <= bytes.count - offset else { return 0..<0 }
        return offset..<(offset + fragment.size)
    }

    /// Which frames are drawn on a cleared canvas, by libwebp's rule: the first; one that
    /// covers the canvas and hides everything under it (opaque, or replacing); one after a
    /// frame whose disposal clears all that was drawn (it covered the canvas, or was
    /// itself drawn on a cleared one).
    static func keyFrames(_ records: [WebPFrameRecord], canvas: PixelSize) -> [Bool] {
        var keys: [Bool] = []
        keys.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            guard index > 0 else {
                keys.append(true)
                continue
            }
            let previous = records[index - 1]
            let hidesAll = (!record.hasAlpha || !record.blends) && record.covers(canvas)
            let clearedBefore = previous.disposesToBackground && (previous.covers(canvas) || keys[index - 1])
            keys.append(hidesAll || clearedBefore)
        }
        return keys
    }
}
