internal import CWebImageDecoding
import Foundation
import WebImageCore

/// What a JPEG's headers say, as far as decoding needs.
struct JPEGHeader {
    enum ColorModel { case gray, yCbCr, rgb, cmyk, other }

    var size: PixelSize
    var colorModel: ColorModel
    var isProgressive: Bool
    /// libjpeg keeps the whole image's DCT coefficients in memory for these.
    var hasMultipleScans: Bool
}

/// Owns one libjpeg decompressor (the C state machine in wi_jpeg.c) and turns its
/// status codes into Swift values and ``ImageDecodingError``s.
///
/// Thread contract: not `Sendable`; one decode uses it from one thread at a time.
final class JPEGDecompressor {
    enum Status { case needData, headerReady, rowsReady, done }

    private let handle: OpaquePointer
    /// The file's first bytes, when they come in pieces shorter than the three the
    /// signature check needs.
    private var head: [UInt8] = []
    private var signatureChecked = false

    /// - Parameter incremental: decode multi-scan files in buffered-image mode, one
    ///   output pass per completed scan.
    init(incremental: Bool) throws(ImageDecodingError) {
        guard let handle = wi_jpeg_create(incremental ? 1 : 0) else {
            throw ImageDecodingError(.outOfMemory, "could not create a libjpeg decompressor", format: .jpeg)
        }
        self.handle = handle
    }

    deinit {
        wi_jpeg_destroy(handle)
    }

    // MARK: Input

    /// Copies the next bytes of the file.
    func append(_ data: Data) throws(ImageDecodingError) {
        let (notJPEG, ok) = data.withUnsafeBytes { raw in
            guard !lacksSignature(raw) else { return (true, Int32(0)) }
            return (false, raw.isEmpty ? Int32(1) : wi_jpeg_append(handle, raw.baseAddress, raw.count))
        }
        if notJPEG { throw Self.noSignature }
        if ok == 0 { throw currentError() }
    }

    /// Reads the whole file in place; `bytes` must outlive every later call.
    func borrow(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        if lacksSignature(bytes) { throw Self.noSignature }
        wi_jpeg_borrow(handle, bytes.baseAddress, bytes.count)
    }

    private static var noSignature: ImageDecodingError {
        ImageDecodingError(.invalidHeader, "no SOI marker followed by a marker", format: .jpeg)
    }

    /// libjpeg skips junk after SOI; a file must start with SOI and a marker, as
    /// ``ImageFormat/sniff(_:)`` requires, or the decoders would take what the registry
    /// refuses. Checked here, where the one-shot and the incremental decoder both feed:
    /// true once the first three bytes are known and are not that. Read in place when
    /// the first piece holds them (every one-shot decode), where a generic copy into a
    /// `Data` cost about 2 % of a cold load's work outside libjpeg.
    private func lacksSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !signatureChecked else { return false }
        let format: ImageFormat?
        if head.isEmpty, bytes.count >= 3 {
            format = UnsafeRawBufferPointer(rebasing: bytes.prefix(3)).withMemoryRebound(to: UInt8.self) {
                ImageFormat.sniff($0)
            }
        } else {
            head.append(contentsOf: bytes.prefix(3 - head.count))
            guard head.count == 3 else { return false }
            format = ImageFormat.sniff(head)
        }
        signatureChecked = true
        return format != .jpeg
    }

    /// Declares that no more bytes will come.
    func endOfData() {
        wi_jpeg_end_of_data(handle)
    }

    // MARK: Driving

    /// Decodes until more input or a decision is needed, or the image is done.
    func step() throws(ImageDecodingError) -> Status {
        switch wi_jpeg_step(handle) {
        case WI_JPEG_NEED_DATA: return .needData
        case WI_JPEG_HEADER_READY: return .headerReady
        case WI_JPEG_ROWS_READY: return .rowsReady
        case WI_JPEG_DONE: return .done
        default: throw currentError()
        }
    }

    /// The header, valid after ``Status/headerReady``.
    var header: JPEGHeader {
        var raw = wi_jpeg_header()
        wi_jpeg_get_header(handle, &raw)
        let model: JPEGHeader.ColorModel =
            switch raw.color {
            case WI_JPEG_COLOR_GRAY: .gray
            case WI_JPEG_COLOR_YCBCR: .yCbCr
            case WI_JPEG_COLOR_RGB: .rgb
            case WI_JPEG_COLOR_CMYK: .cmyk
            default: .other
            }
        return JPEGHeader(
            size: PixelSize(width: Int(raw.width), height: Int(raw.height)),
            colorModel: model,
            isProgressive: raw.progressive != 0,
            hasMultipleScans: raw.multiple_scans != 0
        )
    }

    /// The EXIF orientation from the first Exif APP1 segment read with the header.
    var orientation: ImageOrientation {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        guard wi_jpeg_exif(handle, &bytes, &length) != 0, let bytes else { return .up }
        return ExifOrientation.read(tiff: UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The TIFF bytes of the first Exif APP1 segment read with the header.
    var exif: Data? {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        guard wi_jpeg_exif(handle, &bytes, &length) != 0, let bytes, length > 0 else { return nil }
        return Data(bytes: bytes, count: min(length, ImageHeader.maximumExifByteCount))
    }

    /// What the APP2 ICC_PROFILE segments read with the header hold.
    enum EmbeddedProfile {
        case none
        case profile(Data)
        case broken(String)
    }

    /// The ICC profile of the APP2 segments, reassembled in sequence order.
    var embeddedProfile: EmbeddedProfile {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        switch wi_jpeg_icc(handle, &bytes, &length) {
        case WI_JPEG_ICC_OK:
            guard let bytes else { return .none }
            return .profile(Data(bytes: bytes, count: length))
        case WI_JPEG_ICC_BROKEN: return .broken("its APP2 chunks are missing, repeated or numbered inconsistently")
        case WI_JPEG_ICC_TOO_LARGE: return .broken("its APP2 chunks hold more than \(ColorProfile.maximumByteCount) bytes")
        default: return .none
        }
    }

    /// Leaves CMYK rows as libjpeg gives them (Adobe-inverted ink) for a colour transform.
    func keepCMYK() {
        wi_jpeg_keep_cmyk(handle, 1)
    }

    /// Sets the DCT scale and output colour space; returns the size and layout
    /// libjpeg will produce.
    func configure(scaleEighths: Int, gray: Bool) throws(ImageDecodingError) -> (PixelSize, PixelFormat) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var bytesPerPixel: Int32 = 0
        guard wi_jpeg_configure(handle, Int32(scaleEighths), gray ? 1 : 0, &width, &height, &bytesPerPixel) != 0 else {
            throw currentError()
        }
        return (PixelSize(width: Int(width), height: Int(height)), bytesPerPixel == 1 ? .gray8 : .rgba8)
    }

    /// Where rows go: the whole output (`stripRows` 0) or a strip refilled from the top.
    /// `base` must stay valid until the decode is done.
    func setOutput(base: UnsafeMutableRawPointer, bytesPerRow: Int, stripRows: Int) throws(ImageDecodingError) {
        guard wi_jpeg_set_output(handle, base.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(stripRows)) != 0 else {
            throw currentError()
        }
    }

    // MARK: Progress

    /// Rows from the top that hold decoded pixels.
    var rowsValid: Int { Int(wi_jpeg_rows_valid(handle)) }
    /// Grows each time more pixels become visible.
    var revision: Int { Int(truncatingIfNeeded: wi_jpeg_revision(handle)) }
    /// After ``Status/rowsReady``: the output rows the strip holds, strip row 0 first.
    var stripRows: Range<Int> {
        var first: UInt32 = 0
        var count: UInt32 = 0
        wi_jpeg_strip(handle, &first, &count)
        return Int(first)..<Int(first + count)
    }
    /// After ``Status/done``: the data ended before every pixel was decoded.
    var pixelsMissing: Bool { wi_jpeg_pixels_missing(handle) != 0 }

    private func currentError() -> ImageDecodingError {
        let message = String(cString: wi_jpeg_message(handle))
        let code: ImageDecodingError.Code =
            switch wi_jpeg_error(handle) {
            case WI_JPEG_ERR_NOT_JPEG: .invalidHeader
            case WI_JPEG_ERR_DIMENSIONS: .invalidDimensions
            case WI_JPEG_ERR_UNSUPPORTED: .unsupported
            case WI_JPEG_ERR_TRUNCATED: .truncated
            case WI_JPEG_ERR_NO_MEMORY: .outOfMemory
            case WI_JPEG_ERR_TOO_LARGE: .tooLarge
            case WI_JPEG_ERR_MISUSE: .invalidState
            default: .corrupt
            }
        return ImageDecodingError(code, message.isEmpty ? "libjpeg failed" : message, format: .jpeg)
    }
}
