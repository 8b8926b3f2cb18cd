import Foundation
import WebImageCore

/// Decodes a GIF from bytes fed as they arrive.
///
/// Buffers the bytes and follows their structure with a ``GIFStreamScanner`` (no pixel
/// is decoded on append). ``partialImage()`` decodes the first frame from the buffer as
/// far as the data goes: rows not received yet are transparent, or, in an interlaced
/// frame, repeat the nearest received row above so the whole picture shows at low
/// detail. ``revision`` grows when the first frame's data received in whole sub-blocks
/// has grown by a quarter since the last revision (and once more when the frame is
/// complete), and a partial image is decoded only when asked and only when the revision
/// moved. A partial decode reads the header, the frame's graphic control extension and
/// the frame's data so far, not the extensions before it; with revisions that far
/// apart, all partial images of a file cost time linear in its size (plus the screen's
/// pixels once per revision), however thin the slices and however many its extensions
/// or sub-blocks. The animation itself comes from ``finish()``, which is the one-shot
/// decode of everything received.
///
/// ``info`` appears once the screen descriptor has arrived; its `isProgressive` turns
/// true when the first frame's descriptor shows it interlaced.
///
/// Thread contract: belongs to one task at a time; the images it returns are `Sendable`.
final class GIFIncrementalDecoder: IncrementalImageDecoding {
    let format = ImageFormat.gif
    private(set) var info: ImageInfo?
    private let options: DecodeOptions
    private var buffer = Data()
    private var scanner = GIFStreamScanner()
    private var isFinished = false
    private var cached: (revision: Int, image: DecodedImage?)?
    private(set) var revision = 0
    /// First-frame data bytes at the last revision, and whether the complete frame has
    /// had its revision.
    private var bytesAtRevision = 0
    private var completeShown = false

    init(options: DecodeOptions) {
        self.options = options
    }

    func append(_ data: Data) throws(ImageDecodingError) {
        try checkRunning()
        buffer.append(data)
        do {
            try scanner.scan(buffer, options: options)
        } catch {
            isFinished = true
            throw error
        }
        advanceRevision()
        if info == nil, let screen = scanner.screen {
            info = ImageInfo(format: .gif, size: screen, orientation: .up, isProgressive: false)
        }
        if let interlaced = scanner.firstFrameInterlaced, info?.isProgressive != interlaced {
            info?.isProgressive = interlaced
        }
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        try checkRunning()
        let current = revision
        guard current > 0, let screen = scanner.screen else { return nil }
        if let cached, cached.revision == current { return cached.image }
        let image: DecodedImage?
        do {
            let reader = try GIFFrameReader(data: firstFrameBytes(), options: options)
            image = try reader.partialFirstFrame().map { bitmap in
                DecodedImage(
                    format: .gif, frames: [ImageFrame(bitmap: bitmap)], loopCount: reader.loopCount,
                    orientation: .up, sourceSize: screen, isPartial: true)
            }
        } catch {
            guard error.code == .truncated else { throw error }
            image = nil
        }
        cached = (current, image)
        return image
    }

    /// A quarter more data, at least one sub-block's worth, or the frame complete.
    private func advanceRevision() {
        if scanner.firstFrameComplete {
            if !completeShown {
                completeShown = true
                revision += 1
            }
            return
        }
        let bytes = scanner.firstFrameDataBytes
        if bytes > bytesAtRevision + bytesAtRevision / 4 {
            bytesAtRevision = bytes
            revision += 1
        }
    }

    /// The header and global table, the first frame's graphic control extension and the
    /// first frame's bytes so far: what its partial image needs, without the records
    /// before it.
    private func firstFrameBytes() -> Data {
        guard let start = scanner.recordsStart, let image = scanner.firstImageOffset else { return buffer }
        let base = buffer.startIndex
        var bytes = buffer[base..<(base + start)]
        if let control = scanner.firstGraphicControl {
            bytes.append(buffer[(base + control.lowerBound)..<(base + control.upperBound)])
        }
        bytes.append(buffer[(base + image)...])
        return bytes
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        try checkRunning()
        isFinished = true
        cached = nil
        return try GIFDecoder().decode(buffer, options: options)
    }

    private func checkRunning() throws(ImageDecodingError) {
        guard !isFinished else {
            throw ImageDecodingError(.invalidState, "the GIF incremental decoder has finished", format: .gif)
        }
    }
}
