internal import CWebImageDecoding
import Foundation
import WebImageCore

/// Owns one libpng progressive reader and the RGBA buffer it fills. The one engine
/// behind both the whole-file and the incremental PNG decoders.
///
/// Not `Sendable`: one decode at a time drives it.
final class PNGReader {
    private var reader: OpaquePointer?
    private(set) var storage: PixelStorage?
    private let maxPixelCount: Int
    /// Converts a 16-bit file's rows into the 8-bit buffer, all their bits used.
    private var wideRows: (any WideColorTransforming)?
    /// Sticky failure: once set, every call throws it again.
    private var failure: ImageDecodingError?

    /// A reader of `options`' limits; with `wideRows`, a 16-bit file's samples go through
    /// that transform whole instead of losing their low byte first.
    init(options: DecodeOptions, wideRows: (any WideColorTransforming)? = nil) {
        maxPixelCount = options.maxPixelCount
        self.wideRows = wideRows
    }

    deinit {
        wi_png_reader_destroy(reader)
    }

    /// Sends a 16-bit file's rows through `transform`, as `init(options:wideRows:)` does,
    /// for a reader that learns the transform from the chunks before the first IDAT. No
    /// effect once the header has been read (libpng reads it with the first IDAT).
    func convertWideRows(through transform: any WideColorTransforming) {
        guard size == nil else { return }
        wideRows = transform
        if let reader { wi_png_reader_set_wide_rows(reader, pngConvertWide) }
    }

    var progress: wi_png_progress? {
        reader.map { wi_png_reader_progress($0) }
    }

    /// Header facts once IHDR has been read.
    var size: PixelSize? {
        guard let progress, progress.header_ready != 0 else { return nil }
        return PixelSize(width: Int(progress.width), height: Int(progress.height))
    }

    /// Every row of every pass has arrived.
    var hasAllRows: Bool {
        guard let progress, progress.header_ready != 0 else { return false }
        return progress.complete != 0
    }

    func feed(_ data: Data) throws(ImageDecodingError) {
        if let failure { throw failure }
        if reader == nil {
            let context = Unmanaged.passUnretained(self).toOpaque()
            guard let created = wi_png_reader_create(UInt64(max(0, maxPixelCount)), context, pngAllocate) else {
                throw fail(ImageDecodingError(.outOfMemory, "could not create a libpng reader", format: .png))
            }
            if wideRows != nil { wi_png_reader_set_wide_rows(created, pngConvertWide) }
            reader = created
        }
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return Int32(WI_PNG_OK.rawValue) }
            return wi_png_reader_feed(reader, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if status != Int32(WI_PNG_OK.rawValue) {
            throw fail(error(for: status))
        }
    }

    /// The bitmap of the rows received so far; complete only when ``hasAllRows``.
    func bitmap() -> ImageBitmap? {
        guard let size, let storage else { return nil }
        return ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8, bytesPerRow: size.width * 4, storage: storage)
    }

    /// The EXIF orientation from an eXIf chunk, once IEND has been read.
    var orientation: ImageOrientation {
        guard let progress, let exif = progress.exif, progress.exif_length > 0 else { return .up }
        let bytes = UnsafeBufferPointer(start: exif, count: Int(progress.exif_length))
        return ExifOrientation.read(tiff: bytes)
    }

    /// Whether the rows went through the wide transform (the file is 16-bit).
    var convertedWide: Bool { progress.map { $0.wide != 0 } ?? false }

    /// For a partial image of an interlaced 16-bit file whose passes wait at 16 bits:
    /// converts every `rowStep`-th row merged so far, from the first, into the 8-bit
    /// buffer (which the last row's conversion overwrites whole). No effect on other files.
    func convertMergedRows(every rowStep: Int) {
        guard let progress, let merged = progress.wide_pixels, let storage, rowStep > 0 else { return }
        let width = Int(progress.width)
        storage.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for row in stride(from: 0, to: Int(progress.height), by: rowStep) {
                convertWide(merged + row * width * 8, base + row * width * 4, width)
            }
        }
    }

    fileprivate func convertWide(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ pixels: Int) {
        wideRows?.apply(bigEndian16: source, to: destination, pixelCount: pixels)
    }

    fileprivate func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer? {
        guard let storage = PixelStorage(uninitializedByteCount: byteCount, mappedOnItsOwn: false, prefaulted: true) else { return nil }
        self.storage = storage
        return storage.withUnsafeMutableBytes { $0.baseAddress }
    }

    private func fail(_ error: ImageDecodingError) -> ImageDecodingError {
        failure = error
        return error
    }

    private func error(for status: Int32) -> ImageDecodingError {
        let message = String(cString: wi_png_reader_message(reader))
        let code: ImageDecodingError.Code
        switch UInt32(status) {
        case WI_PNG_ERROR_HEADER.rawValue: code = .invalidHeader
        case WI_PNG_ERROR_DIMENSIONS.rawValue: code = .invalidDimensions
        case WI_PNG_ERROR_TOO_LARGE.rawValue: code = .tooLarge
        case WI_PNG_ERROR_NO_MEMORY.rawValue: code = .outOfMemory
        default: code = .corrupt
        }
        return ImageDecodingError(code, message, format: .png)
    }

    /// Declares the end of the data. The image is whole when every pixel arrived and
    /// the IDAT chunk that held the last of them was read through its CRC; IEND may
    /// be missing or cut (no pixel is in doubt). Otherwise it throws `.truncated` when
    /// the data ended inside the image data, and `.corrupt` when the image data was
    /// over (IEND or another chunk came after it) with rows still missing.
    func requireComplete() throws(ImageDecodingError) {
        if let failure { throw failure }
        guard let progress, progress.header_ready != 0 else {
            throw fail(ImageDecodingError(.truncated, "the data ends before the PNG header is complete", format: .png))
        }
        guard hasAllRows else {
            let size = "\(progress.width)x\(progress.height)"
            if progress.image_data_over != 0 {
                throw fail(
                    ImageDecodingError(
                        .corrupt, "the image data of the \(size) image ends before its last row", format: .png
                    ))
            }
            throw fail(
                ImageDecodingError(
                    .truncated, "the data ends before every row of the \(size) image arrived", format: .png
                ))
        }
    }
}

/// libpng asks for the output buffer through this; it must not throw or call libpng.
private func pngAllocate(_ context: UnsafeMutableRawPointer?, _ byteCount: Int) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    return Unmanaged<PNGReader>.fromOpaque(context).takeUnretainedValue().allocate(byteCount)
}

/// libpng's 16-bit rows come through this; it must not throw or call libpng.
private func pngConvertWide(
    _ context: UnsafeMutableRawPointer?, _ source: UnsafePointer<UInt8>?, _ destination: UnsafeMutablePointer<UInt8>?, _ pixels: Int
) {
    guard let context, let source, let destination else { return }
    Unmanaged<PNGReader>.fromOpaque(context).takeUnretainedValue().convertWide(source, destination, pixels)
}
