import Foundation
import WebImageCore

/// imgproxy's `max_bytes`: a lossy output over the size is written again at a lower
/// quality, by a quarter, a half or three quarters as it is over 3x, 1.5x or less, until
/// it fits or the quality reaches 10, whose output is answered either way. PNG, lossless,
/// is written once.
enum FittingBytes {
    static func encode(
        _ format: OutputFormat, startingAt start: Int, maxBytes: Int?,
        _ write: (_ quality: Int) throws(ImageDecodingError) -> Data
    ) throws(ImageDecodingError) -> Data {
        // A write that always answers makes an answer.
        try encodeIfWritten(format, startingAt: start, maxBytes: maxBytes, write)!
    }

    /// As ``encode(_:startingAt:maxBytes:_:)``, for a writer that may decline (a
    /// `nil`): then `nil`.
    static func encodeIfWritten(
        _ format: OutputFormat, startingAt start: Int, maxBytes: Int?,
        _ write: (_ quality: Int) throws(ImageDecodingError) -> Data?
    ) throws(ImageDecodingError) -> Data? {
        var quality = start
        while true {
            guard let output = try write(quality) else { return nil }
            guard let maxBytes, format != .png, output.count > maxBytes, quality > 10 else { return output }
            let over = Double(output.count) / Double(maxBytes)
            let factor = over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75
            let lowered = Int((Double(quality) * factor).rounded())
            quality = max(1, min(quality - 1, lowered))
        }
    }
}
