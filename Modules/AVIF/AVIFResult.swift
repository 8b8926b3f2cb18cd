internal import CLibAVIF
import WebImageCore

/// libavif's result codes as the library's typed errors.
enum AVIFResult {
    /// The error for a call that returned `result`; `nil` for `AVIF_RESULT_OK`.
    ///
    /// `diagnostics` is libavif's own sentence about the failure, when it wrote one.
    static func error(_ result: avifResult, diagnostics: String? = nil) -> ImageDecodingError? {
        let code: ImageDecodingError.Code
        switch result {
        case AVIF_RESULT_OK:
            return nil
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO:
            code = .truncated
        case AVIF_RESULT_INVALID_FTYP, AVIF_RESULT_NO_CONTENT, AVIF_RESULT_BMFF_PARSE_FAILED, AVIF_RESULT_NO_AV1_ITEMS_FOUND,
            AVIF_RESULT_ISPE_SIZE_MISMATCH, AVIF_RESULT_COLOR_ALPHA_SIZE_MISMATCH, AVIF_RESULT_INVALID_IMAGE_GRID:
            code = .invalidHeader
        case AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_UNSUPPORTED_DEPTH:
            code = .unsupported
        case AVIF_RESULT_OUT_OF_MEMORY:
            code = .outOfMemory
        default:
            code = .corrupt
        }
        return ImageDecodingError(code, message(result, diagnostics), format: .avif)
    }

    /// The error for an encoder call that returned `result`, always `encodingFailed`.
    static func encodingError(_ result: avifResult, diagnostics: String? = nil) -> ImageDecodingError {
        ImageDecodingError(.encodingFailed, message(result, diagnostics), format: .avif)
    }

    /// "libavif: " and the result's name, then libavif's own sentence when it wrote one.
    private static func message(_ result: avifResult, _ diagnostics: String?) -> String {
        let name = String(cString: avifResultToString(result))
        let detail = diagnostics.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
        return "libavif: \(name)\(detail)"
    }

    /// libavif's diagnostic sentence, a fixed-size C string inside its structures.
    static func text(_ diagnostics: avifDiagnostics) -> String {
        withUnsafeBytes(of: diagnostics.error) { bytes in
            let characters = bytes.prefix { $0 != 0 }
            return String(decoding: characters, as: UTF8.self)
        }
    }
}
