import Foundation
import WebImageCore

/// Decodes a GIF from bytes fed as they arrive.
///
/// Buffers the bytes and follows their structure with a ``GIFStreamScanner`` (no pixel
/// is decoded on append). ``partialImage()`` decodes the first frame from the buffer as
/// far as the data goes: rows not received yet are transparent, or, in an interlaced
/// frame, repeat the nearest received row above so the whole picture shows at low
/// detail. ``revision`` grows with each whole data sub-block of the first frame (and
/// once more when it is complete), and a partial image is decoded only when asked and
/// only when the revision moved. The animation itself comes from ``finish()``, which is
/// the one-shot decode of everything received.
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

    init(options: DecodeOptions) {
        self.options = options
    }

    var revision: Int {
        scanner.firstFrameBlocks + (scanner.firstFrameComplete ? 1 : 0)
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
            let reader = try GIFFrameReader(data: buffer, options: options)
            image = try reader.partialFirstFrame().map { bitmap in
                DecodedImage(format: .gif, frames: [ImageFrame(bitmap: bitmap)], loopCount: reader.loopCount,
                             orientation: .up, sourceSize: screen, isPartial: true)
            }
        } catch {
            guard error.code == .truncated else { throw error }
            image = nil
        }
        cached = (current, image)
        return image
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
