import Foundation
import WebImageCore

/// Decodes a JPEG from bytes fed as they arrive (see ``JPEGDecoder/makeIncrementalDecoder(options:)``).
///
/// libjpeg decodes into one canvas at the DCT-scaled size; a partial image is a copy
/// of it (rows not decoded yet mid-grey), finished like the final image by
/// ``PostProcessing``.
///
/// Thread contract: not `Sendable`; one task feeds it. The images it returns are
/// independent copies and may be shared.
final class JPEGIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase { case running, finished, failed }

    private let options: DecodeOptions
    private var engine: JPEGDecompressor?
    private var phase = Phase.running
    private var decodeDone = false
    private var receivedBytes = 0
    private var orientation = ImageOrientation.up
    /// The embedded profile and CMYK facts, once the header is known (no converter: an
    /// incremental decode converts CMYK with the naive formula).
    private var color: JPEGColor?
    /// The canvas libjpeg writes into, once the header is known.
    private var canvas: ImageBitmap?

    private(set) var info: ImageInfo?

    init(options: DecodeOptions) {
        self.options = options
    }

    var format: ImageFormat { .jpeg }

    /// Kept when the engine is released, so the revision never goes back.
    private var lastRevision = 0

    var revision: Int {
        if let engine { lastRevision = engine.revision }
        return lastRevision
    }

    func append(_ data: Data) throws(ImageDecodingError) {
        try guarded { () throws(ImageDecodingError) in
            let engine = try self.currentEngine()
            receivedBytes += data.count
            try engine.append(data)
            try pump(engine)
        }
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        guard phase != .failed else { throw ImageDecodingError(.invalidState, "the decoder failed earlier", format: .jpeg) }
        guard let engine, let canvas, let info else { return nil }
        let valid = decodeDone ? canvas.height : min(engine.rowsValid, canvas.height)
        guard valid > 0 else { return nil }
        let copy = try ImageBitmap(width: canvas.width, height: canvas.height, pixelFormat: canvas.pixelFormat) { (out, stride) in
            canvas.withUnsafeBytes { source in
                let rowBytes = canvas.packedRowBytes
                for y in 0..<valid {
                    (out.baseAddress! + y * stride).copyMemory(from: source.baseAddress! + y * canvas.bytesPerRow, byteCount: rowBytes)
                }
                JPEGIncrementalDecoder.fillGrey(out, rows: valid..<canvas.height, stride: stride, format: canvas.pixelFormat)
            }
        }
        let (bitmap, shown) = try PostProcessing.finish(copy, options: options, orientation: orientation)
        var image = DecodedImage(
            format: .jpeg, frames: [ImageFrame(bitmap: bitmap)], orientation: shown, sourceSize: info.size, isPartial: true)
        color?.describe(&image)
        return image
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        try guarded { () throws(ImageDecodingError) -> DecodedImage in
            guard receivedBytes > 0 else { throw ImageDecodingError(.empty, "no bytes to decode", format: .jpeg) }
            let engine = try self.currentEngine()
            engine.endOfData()
            try pump(engine)
            guard decodeDone, let canvas, let info else {
                throw ImageDecodingError(.truncated, "the data ends before the image", format: .jpeg)
            }
            if engine.pixelsMissing {
                throw ImageDecodingError(.truncated, "the data ends before every pixel was decoded", format: .jpeg)
            }
            phase = .finished
            let (bitmap, shown) = try PostProcessing.finish(canvas, options: options, orientation: orientation)
            var image = DecodedImage(format: .jpeg, frames: [ImageFrame(bitmap: bitmap)], orientation: shown, sourceSize: info.size)
            color?.describe(&image)
            return image
        }
    }

    // MARK: Internals

    /// Runs `body` unless finished; any error it throws finishes the decoder.
    private func guarded<R>(_ body: () throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
        guard phase == .running else {
            throw ImageDecodingError(.invalidState, "the decoder has already finished or failed", format: .jpeg)
        }
        do {
            return try body()
        } catch {
            phase = .failed
            _ = revision
            engine = nil  // frees libjpeg's memory now rather than when the decoder goes
            throw error
        }
    }

    private func currentEngine() throws(ImageDecodingError) -> JPEGDecompressor {
        if let engine { return engine }
        let made = try JPEGDecompressor(incremental: true)
        engine = made
        return made
    }

    /// Decodes as far as the bytes so far allow.
    private func pump(_ engine: JPEGDecompressor) throws(ImageDecodingError) {
        while !decodeDone {
            switch try engine.step() {
            case .needData: return
            case .headerReady: try prepareCanvas(engine)
            case .rowsReady: continue  // strips are one-shot only
            case .done: decodeDone = true
            }
        }
    }

    /// Header known: check the limits, then allocate the canvas libjpeg writes into.
    private func prepareCanvas(_ engine: JPEGDecompressor) throws(ImageDecodingError) {
        let header = engine.header
        orientation = engine.orientation
        color = JPEGColor(header: header, embedded: engine.embeddedProfile, options: options, converter: nil)
        info = ImageInfo(format: .jpeg, size: header.size, orientation: orientation, isProgressive: header.isProgressive)
        let plan = try JPEGScalePlan(header: header, options: options)
        let (size, pixelFormat) = try engine.configure(scaleEighths: plan.scaleEighths, gray: plan.wantsGray)
        try options.checkPixelCount(size.pixelCount, "a \(size) JPEG decode")
        let storage = try PixelStorage.packed(width: size.width, height: size.height, pixelFormat: pixelFormat)
        let stride = size.width * pixelFormat.bytesPerPixel
        try storage.withUnsafeMutableBytes { (raw) throws(ImageDecodingError) in
            try engine.setOutput(base: raw.baseAddress!, bytesPerRow: stride, stripRows: 0)
        }
        canvas = ImageBitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, bytesPerRow: stride, storage: storage)
    }

    /// Mid-grey, opaque: rows of a baseline image not received yet.
    private static func fillGrey(_ out: UnsafeMutableRawBufferPointer, rows: Range<Int>, stride: Int, format: PixelFormat) {
        guard !rows.isEmpty else { return }
        let start = out.baseAddress! + rows.lowerBound * stride
        let count = rows.count * stride
        memset(start, 128, count)
        if format == .rgba8 {
            let bytes = start.assumingMemoryBound(to: UInt8.self)
            var index = 3
            while index < count {
                bytes[index] = 255
                index += 4
            }
        }
    }
}
