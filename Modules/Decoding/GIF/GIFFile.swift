internal import CGIFLib
import Foundation
import WebImageCore

/// One giflib reading handle over in-memory bytes, walked record by record with the
/// low-level API (never `DGifSlurp`, which would hold every raw frame).
///
/// Owns the `GifFileType` and closes it in `deinit`. giflib reports errors by codes, so
/// every call is checked here and turned into an ``ImageDecodingError``: when a read ran
/// past the end of the data the error is ``ImageDecodingError/Code/truncated``, which
/// callers at a record boundary may take as the end of the file.
///
/// Not `Sendable`: one reader walks it.
final class GIFFile {
    let source: GIFByteSource
    private let handle: UnsafeMutablePointer<GifFileType>

    /// Opens `data` and reads the header, logical screen descriptor and global table.
    ///
    /// - Throws: ``ImageDecodingError/Code/truncated`` when the data ends inside them,
    ///   ``ImageDecodingError/Code/invalidHeader`` for a bad signature.
    init(data: Data) throws(ImageDecodingError) {
        guard GIFSignature.canBegin(data) else {
            throw ImageDecodingError(.invalidHeader, "no GIF87a/GIF89a signature", format: .gif)
        }
        let source = GIFByteSource(data)
        var error: Int32 = 0
        let opened = DGifOpen(
            Unmanaged.passUnretained(source).toOpaque(),
            { gif, buffer, count in
                guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
                let source = Unmanaged<GIFByteSource>.fromOpaque(user).takeUnretainedValue()
                return Int32(source.read(into: buffer, count: Int(count)))
            }, &error)
        guard let opened else {
            if source.ranPastEnd {
                throw ImageDecodingError(.truncated, "the data ends inside the GIF header or global colour table", format: .gif)
            }
            if error == D_GIF_ERR_NOT_GIF_FILE {
                throw ImageDecodingError(.invalidHeader, "no GIF87a/GIF89a signature", format: .gif)
            }
            throw GIFFile.error(code: error, what: "reading the screen descriptor", ranPastEnd: false)
        }
        self.source = source
        self.handle = opened
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(handle, &error)
    }

    /// The logical screen size.
    var screenSize: PixelSize {
        PixelSize(width: Int(handle.pointee.SWidth), height: Int(handle.pointee.SHeight))
    }

    /// The global colour table, if the file has one.
    var globalPalette: GIFPalette? {
        handle.pointee.SColorMap.map { GIFPalette($0) }
    }

    /// The kind of the next record, read from the bytes: giflib keeps no state between
    /// records and reads none ahead, so the records it need not decode are walked here,
    /// in place, rather than through its read callback a few bytes at a time.
    ///
    /// Extensions no caller reads (comments, plain text, unknown labels) are stepped over
    /// here in one tight loop: only images, the trailer, graphic control and application
    /// extensions are returned. A hundred thousand comments cost one pass over their
    /// bytes.
    ///
    /// - Throws: ``ImageDecodingError/Code/truncated`` when the data ends before the
    ///   next record or inside a skipped extension; ``ImageDecodingError/Code/corrupt``
    ///   for an unknown record type.
    func nextRecord() throws(ImageDecodingError) -> GIFRecord {
        try source.withBytes { (bytes) throws(ImageDecodingError) in try nextRecord(in: bytes) }
    }

    private func nextRecord(in bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> GIFRecord {
        var offset = source.position
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:
                source.move(to: offset + 1)
                return .image
            case 0x3B:
                source.move(to: offset + 1)
                return .trailer
            case 0x21:
                guard offset + 1 < bytes.count else { break }
                let label = bytes[offset + 1]
                if label == 0xF9 || label == 0xFF {
                    source.move(to: offset + 1)
                    return .extension
                }
                // The sub-block chain, walked inline: length bytes, up to the terminator.
                offset += 2
                while offset < bytes.count, bytes[offset] != 0 {
                    offset += 1 + Int(bytes[offset])
                }
                guard offset < bytes.count else {
                    throw ImageDecodingError(.truncated, "the data ends while reading an extension", format: .gif)
                }
                offset += 1
                continue
            case let other:
                throw ImageDecodingError(.corrupt, "unknown GIF record type 0x\(String(other, radix: 16)) at byte \(offset)", format: .gif)
            }
            break
        }
        throw ImageDecodingError(.truncated, "the data ends while reading a record type", format: .gif)
    }

    /// Reads an image descriptor, its local colour table and its LZW code size; the
    /// source is then at the frame's first data sub-block.
    func readImageDescriptor() throws(ImageDecodingError) -> GIFFrameDescriptor {
        try check(DGifGetImageDesc(handle), "reading an image descriptor")
        let image = handle.pointee.Image
        let descriptor = GIFFrameDescriptor(
            left: Int(image.Left), top: Int(image.Top),
            width: Int(image.Width), height: Int(image.Height),
            isInterlaced: image.Interlace,
            localPalette: image.ColorMap.map { GIFPalette($0) }
        )
        forgetSavedImages()
        return descriptor
    }

    /// giflib 5.2 appends a copy of every image descriptor (and its colour table) to
    /// `SavedImages`, growing the array one element at a time with `realloc`: a file of
    /// N frames cost N^2 copying wherever realloc moves the block (always, under
    /// AddressSanitizer), and memory for every table. The low-level reading used here
    /// never needs those copies, so each is dropped as soon as it is made.
    private func forgetSavedImages() {
        GifFreeSavedImages(handle)
        handle.pointee.SavedImages = nil
        handle.pointee.ImageCount = 0
    }

    /// Reads a whole extension from the bytes, in place: its label, and what a graphic
    /// control or application extension says (from its first two sub-blocks). Every
    /// byte is stepped over once.
    ///
    /// - Throws: ``ImageDecodingError/Code/truncated`` when the data ends inside it.
    func readExtension() throws(ImageDecodingError) -> GIFExtension {
        try source.withBytes { (bytes) throws(ImageDecodingError) in try readExtension(in: bytes) }
    }

    private func readExtension(in bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> GIFExtension {
        let start = source.position
        guard start < bytes.count,
            case .complete(let end) = GIFBlockChain(in: bytes, from: start + 1)
        else {
            throw ImageDecodingError(.truncated, "the data ends while reading an extension", format: .gif)
        }
        // The chain is whole: every length byte before `end - 1` starts a block inside it.
        func block(at offset: Int) -> UnsafeRawBufferPointer? {
            guard offset < end - 1 else { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + Int(bytes[offset]))])
        }
        let first = block(at: start + 1)
        let second = first.flatMap { block(at: start + 2 + $0.count) }
        source.move(to: end)
        var found = GIFExtension(label: bytes[start], first: first, second: second)
        if found.label == 0xFF, let first, first.elementsEqual(GIFExtension.iccIdentifier) {
            found.iccProfile = Self.joinedBlocks(bytes, from: start + 2 + first.count, to: end - 1)
        }
        return found
    }

    /// The data of the sub-blocks from `offset` to `end` (a whole chain's), joined; cut
    /// one byte past the profile size limit, for the profile's header read to refuse.
    private static func joinedBlocks(_ bytes: UnsafeRawBufferPointer, from offset: Int, to end: Int) -> Data {
        var data = Data()
        var offset = offset
        let limit = ColorProfile.maximumByteCount + 1
        while offset < end, data.count < limit {
            let length = Int(bytes[offset])
            let take = min(length, limit - data.count)
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + take)]))
            offset += 1 + length
        }
        return data
    }

    /// Skips the LZW data of the frame whose descriptor was just read.
    func skipImageData() throws(ImageDecodingError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(handle, &codeSize, &block), "skipping image data")
        while block != nil {
            try check(DGifGetCodeNext(handle, &block), "skipping image data")
        }
    }

    /// Decodes the next `count` pixel indices of the current frame into `line`.
    ///
    /// The error is giflib's, unclassified: the frame reader knows whether the frame's
    /// data is whole and so whether a failure means damage or truncation.
    func readLine(into line: UnsafeMutablePointer<UInt8>, count: Int) -> Int32? {
        DGifGetLine(handle, line, Int32(count)) == GIF_OK ? nil : handle.pointee.Error
    }

    private func check(_ status: Int32, _ what: String) throws(ImageDecodingError) {
        guard status != GIF_OK else { return }
        throw GIFFile.error(code: handle.pointee.Error, what: what, ranPastEnd: source.ranPastEnd)
    }

    /// The error for giflib's `code` while doing `what`.
    static func error(code: Int32, what: String, ranPastEnd: Bool) -> ImageDecodingError {
        if ranPastEnd {
            return ImageDecodingError(.truncated, "the data ends while \(what)", format: .gif)
        }
        let detail = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        switch code {
        case D_GIF_ERR_NOT_ENOUGH_MEM:
            return ImageDecodingError(.outOfMemory, "giflib: \(detail) while \(what)", format: .gif)
        case D_GIF_ERR_NOT_GIF_FILE, D_GIF_ERR_NO_SCRN_DSCR:
            return ImageDecodingError(.invalidHeader, "giflib: \(detail) while \(what)", format: .gif)
        default:
            return ImageDecodingError(.corrupt, "giflib: \(detail) while \(what)", format: .gif)
        }
    }
}

/// The kinds of GIF record.
enum GIFRecord {
    case image, `extension`, trailer
}

/// What an image descriptor says about one frame.
struct GIFFrameDescriptor {
    var left: Int, top: Int, width: Int, height: Int
    var isInterlaced: Bool
    var localPalette: GIFPalette?

    /// Pixels the LZW data must decode: the rectangle before any clipping.
    var pixelCount: Int { PixelSize(width: width, height: height).pixelCount }
}
