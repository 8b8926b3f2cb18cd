internal import CLibWebP
import Foundation
import WebImageCore
import WebImageDecoding

/// Decodes a WebP from bytes fed as they arrive (see
/// ``WebPDecoder/makeIncrementalDecoder(options:)``).
///
/// A still file goes through libwebp's incremental decoder (`WebPIDecoder`), which
/// writes rows into the canvas as their data arrives; a partial image is a copy of the
/// canvas with the rows not decoded yet transparent. An animation has no incremental
/// form in libwebp: it is decoded whole by ``finish()``, and has no partial image. Every
/// byte is kept, because the EXIF chunk (the orientation) comes after the pixels.
///
/// Thread contract: not `Sendable`; one task feeds it. The images it returns are
/// independent copies and may be shared.
final class WebPIncrementalDecoder: IncrementalImageDecoding {
    private enum Phase { case header, still, animated, finished, failed }

    private let options: DecodeOptions
    private var phase = Phase.header
    private var received = Data()
    private var header: WebPHeader?
    /// Where libwebp writes, at the output size.
    private var canvas: ImageBitmap?
    /// libwebp keeps a pointer to the configuration's output for the decoder's life, so
    /// the configuration lives at a fixed address.
    private var config: UnsafeMutablePointer<WebPDecoderConfig>?
    private var decoder: OpaquePointer?
    private var lastStatus = VP8_STATUS_SUSPENDED
    private var rowsDecoded = 0

    private(set) var info: ImageInfo?
    private(set) var revision = 0

    init(options: DecodeOptions) {
        self.options = options
    }

    deinit { release() }

    var format: ImageFormat { .webp }

    func append(_ data: Data) throws(ImageDecodingError) {
        try guarded { () throws(ImageDecodingError) in
            received.append(data)
            switch phase {
            case .header: try start()
            case .still: try feed(data)
            case .animated, .finished, .failed: break
            }
        }
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        guard phase != .failed else { throw ImageDecodingError(.invalidState, "the decoder failed earlier", format: .webp) }
        guard let canvas, let info, rowsDecoded > 0 else { return nil }
        let rows = rowsDecoded
        let copy = try ImageBitmap(width: canvas.width, height: canvas.height, pixelFormat: .rgba8) { (out, stride) in
            canvas.withUnsafeBytes { source in
                out.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: rows * stride)
                (out.baseAddress! + rows * stride).initializeMemory(as: UInt8.self, repeating: 0, count: (canvas.height - rows) * stride)
            }
        }
        let (bitmap, shown) = try PostProcessing.finish(copy, options: options, orientation: .up)
        return DecodedImage(format: .webp, frames: [ImageFrame(bitmap: bitmap)], orientation: shown, sourceSize: info.size, isPartial: true)
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        try guarded { () throws(ImageDecodingError) -> DecodedImage in
            guard !received.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .webp) }
            let image: DecodedImage
            switch phase {
            case .header:
                // Reading the header from every byte there is throws why it cannot be read.
                _ = try received.withBytes { (bytes) throws(ImageDecodingError) in try WebPHeader(bytes) }
                image = try WebPDecoder().decode(received, options: options)
            case .animated:
                image = try WebPDecoder().decode(received, options: options)
            case .still:
                guard lastStatus == VP8_STATUS_OK, let canvas, let header else {
                    throw WebPStatus.error(lastStatus)
                        ?? ImageDecodingError(.truncated, "the data ends before the image", format: .webp)
                }
                let orientation = received.withUnsafeBytes { header.hasEXIF ? WebPMetadata.orientation($0) : .up }
                let (bitmap, shown) = try PostProcessing.finish(canvas, options: options, orientation: orientation)
                image = DecodedImage(format: .webp, frames: [ImageFrame(bitmap: bitmap)], orientation: shown, sourceSize: header.size)
            case .finished, .failed:
                throw ImageDecodingError(.invalidState, "the decoder has already finished", format: .webp)
            }
            phase = .finished
            release()
            return image
        }
    }

    /// Runs `body`; an error leaves the decoder failed and its libwebp state freed.
    private func guarded<T>(_ body: () throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        guard phase != .finished, phase != .failed else {
            throw ImageDecodingError(.invalidState, "the decoder has already finished or failed", format: .webp)
        }
        do {
            return try body()
        } catch {
            phase = .failed
            release()
            throw error
        }
    }

    /// Reads the header once enough bytes have come, and sets up the decode it calls for.
    private func start() throws(ImageDecodingError) {
        let header: WebPHeader
        do {
            header = try received.withBytes { (bytes) throws(ImageDecodingError) in try WebPHeader(bytes) }
        } catch  where error.code == .truncated {
            return  // wait for more
        }
        self.header = header
        try options.checkPixelCount(header.size.pixelCount, "the WebP image \(header.size)")
        info = ImageInfo(format: .webp, size: header.size)
        if header.isAnimated {
            phase = .animated
            return
        }
        let target = options.targetSize(for: header.size)
        let canvas = try ImageBitmap(width: target.width, height: target.height, pixelFormat: .rgba8) { _, _ in }
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        self.config = config
        // The storage's block never moves, so libwebp may keep writing to it after this
        // closure returns; the canvas is kept alive as long as the decoder.
        config.pointee = try canvas.storage.withUnsafeMutableBytes { (out) throws(ImageDecodingError) in
            try WebPStillDecode.makeConfig(header: header, target: target, out: out, stride: canvas.bytesPerRow)
        }
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw ImageDecodingError(.outOfMemory, "libwebp could not start an incremental decode", format: .webp)
        }
        self.decoder = decoder
        self.canvas = canvas
        phase = .still
        try feed(received)
    }

    /// Hands `data` to libwebp and notes the rows it has finished.
    private func feed(_ data: Data) throws(ImageDecodingError) {
        guard let decoder, !data.isEmpty else { return }
        lastStatus = data.withUnsafeBytes { bytes in
            WebPIAppend(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if lastStatus != VP8_STATUS_OK, lastStatus != VP8_STATUS_SUSPENDED, let error = WebPStatus.error(lastStatus) {
            throw error
        }
        var lastRow: Int32 = 0
        if WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil) != nil, Int(lastRow) > rowsDecoded {
            rowsDecoded = Int(lastRow)
            revision += 1
        }
    }

    private func release() {
        if let decoder { WebPIDelete(decoder) }
        decoder = nil
        if let config {
            WebPFreeDecBuffer(&config.pointee.output)
            config.deallocate()
        }
        config = nil
    }
}
