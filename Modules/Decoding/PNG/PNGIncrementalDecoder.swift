internal import CWebImageDecoding
import Foundation
import WebImageCore

/// Feeds PNG bytes to libpng as they arrive. A plain PNG shows the rows decoded so
/// far (the rest transparent); an interlaced PNG shows the whole picture after each
/// complete Adam7 pass, each known pixel filling the block it stands for.
///
/// An animated PNG shows its default image as it arrives, and ``finish()`` returns the
/// whole animation. To know, the bytes are kept until the first IDAT chunk: a file
/// without `acTL` by then is not animated and is no longer kept; an animated one is
/// kept whole, to be decoded again as an animation at the end. The colour chunks before
/// the first IDAT are read once, there, and describe the partial and final images as a
/// whole decode's. With a colour engine, a 16-bit file's rows are converted there as a
/// whole decode converts them (see `PNGDecoder.wideRows(for:color:options:converter:)`),
/// and the partial images of an interlaced one from its passes still at 16 bits.
final class PNGIncrementalDecoder: IncrementalImageDecoding {
    private let options: DecodeOptions
    private let converter: (any ColorConverting)?
    private let reader: PNGReader
    /// The space the rows are converted to (`nil`: sRGB), once a 16-bit file's transform is built.
    private var wideTarget: ColorProfile??
    private var finished = false
    /// Every byte so far, while the file may be animated; `nil` once it cannot be.
    private var kept: Data? = Data()
    /// Where the next chunk header starts in `kept`, until the first IDAT.
    private var scanPosition = 8
    private var scanDone = false
    private var hasAnimationControl = false
    /// What the colour chunks say, read once from the bytes before the first IDAT.
    private var colorStatement: PNGColorChunks.Statement?

    init(options: DecodeOptions, converter: (any ColorConverting)? = nil) {
        self.options = options
        self.converter = converter
        self.reader = PNGReader(options: options)
    }

    var format: ImageFormat { .png }

    var info: ImageInfo? {
        guard let size = reader.size, let progress = reader.progress else { return nil }
        return ImageInfo(format: .png, size: size, orientation: reader.orientation, isProgressive: progress.interlaced != 0)
    }

    var revision: Int {
        guard let progress = reader.progress, progress.header_ready != 0 else { return 0 }
        if progress.interlaced != 0 { return completedPasses(progress) }
        return Int(progress.rows_received)
    }

    func append(_ data: Data) throws(ImageDecodingError) {
        guard !finished else { throw ImageDecodingError(.invalidState, "append after finish", format: .png) }
        keep(data)
        try reader.feed(data)
    }

    /// Keeps `data` while the file may be animated: reads chunk headers up to the
    /// first IDAT, each once.
    private func keep(_ data: Data) {
        guard kept != nil else { return }
        kept!.append(data)
        guard !scanDone, let bytes = kept else { return }
        while scanPosition + 8 <= bytes.count {
            let at = bytes.startIndex + scanPosition
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = bytes[(at + 4)..<(at + 8)]
            if type.elementsEqual("acTL".utf8) { hasAnimationControl = true }
            if type.elementsEqual("IDAT".utf8) {
                scanDone = true
                // Colour chunks come before the image data: all of them are in by now.
                let statement = PNGColorChunks.read(bytes.prefix(scanPosition))
                colorStatement = statement
                // libpng reads the header with this IDAT, in the feed that follows.
                if let converter,
                    let wide = PNGDecoder.wideRows(
                        for: bytes.prefix(scanPosition), color: statement, options: options, converter: converter)
                {
                    reader.convertWideRows(through: wide.transform)
                    wideTarget = .some(wide.target)
                }
                if !hasAnimationControl { kept = nil }
                return
            }
            scanPosition += 12 + length
        }
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? {
        guard let bitmap = reader.bitmap(), let progress = reader.progress else { return nil }
        let partial: ImageBitmap
        if reader.hasAllRows {
            partial = try bitmap.copy()
        } else if progress.interlaced != 0 {
            let passes = completedPasses(progress)
            guard passes > 0 else { return nil }
            // The rows the preview reads, from the passes waiting at 16 bits.
            reader.convertMergedRows(every: Adam7Preview.blockSize(afterPasses: passes).height)
            partial = try Adam7Preview.fill(bitmap, completedPasses: passes)
        } else {
            guard progress.rows_received > 0 else { return nil }
            partial = try PNGIncrementalDecoder.topRows(of: bitmap, count: Int(progress.last_row) + 1)
        }
        let (result, orientation) = try PostProcessing.finish(partial, options: options, orientation: reader.orientation)
        var image = DecodedImage(
            format: .png, frames: [ImageFrame(bitmap: result)], orientation: orientation,
            sourceSize: bitmap.size, isPartial: !reader.hasAllRows
        )
        describeColor(of: &image)
        return image
    }

    /// The colour the chunks describe, and the space the rows were converted to if they were.
    private func describeColor(of image: inout DecodedImage) {
        if let colorStatement { image.describeColor(colorStatement) }
        if reader.convertedWide, let wideTarget { image.colorProfile = wideTarget }
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        guard !finished else { throw ImageDecodingError(.invalidState, "finish called twice", format: .png) }
        finished = true
        if let kept, hasAnimationControl, let structure = APNGStructure(kept), structure.isAnimated {
            return try PNGDecoder().decode(kept, options: options, structure: structure, converter: converter)
        }
        try reader.requireComplete()
        var image = try PNGDecoder.finalImage(from: reader, options: options)
        describeColor(of: &image)
        return image
    }

    /// Passes whose every row has arrived: those before the pass of the last row, or
    /// all seven once the image is complete.
    private func completedPasses(_ progress: wi_png_progress) -> Int {
        if reader.hasAllRows { return 7 }
        return Int(progress.current_pass)
    }

    /// A copy with the first `count` rows and the rest transparent.
    private static func topRows(of bitmap: ImageBitmap, count: Int) throws(ImageDecodingError) -> ImageBitmap {
        try bitmap.withUnsafeBytes { (source) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: bitmap.width, height: bitmap.height, pixelFormat: .rgba8) { (dest, stride) in
                let copied = min(count, bitmap.height) * stride
                dest.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: copied)
                dest.baseAddress!.advanced(by: copied).initializeMemory(as: UInt8.self, repeating: 0, count: dest.count - copied)
            }
        }
    }
}
