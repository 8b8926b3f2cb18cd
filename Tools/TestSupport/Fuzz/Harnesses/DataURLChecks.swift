import Foundation
@_spi(Fuzzing) import WebImageTransport

/// The `data:` URL reader under fuzzing: a page may hand any URL to the loader.
enum DataURLChecks {
    /// Reads `text` as a `data:` URL and checks that what it gives is sensible (a media
    /// type without a comma) and that the bytes and media type, written back as a
    /// base64 data URL, read back the same. Returns whether `text` was a data URL.
    static func run(_ text: String) -> Bool {
        guard let url = URL(string: text), let parsed = DataURL(url) else { return false }
        fuzzCheck(!parsed.mediaType.isEmpty, "empty media type from \(text.debugDescription)")
        fuzzCheck(!parsed.mediaType.contains(","), "media type \(parsed.mediaType.debugDescription) holds a comma")
        let rebuilt = "data:\(parsed.mediaType);base64,\(parsed.bytes.base64EncodedString())"
        guard let again = URL(string: rebuilt).flatMap(DataURL.init) else {
            fuzzFailure("a written data URL does not read back: \(rebuilt.debugDescription)")
        }
        fuzzCheck(again.bytes == parsed.bytes, "bytes do not read back the same from \(rebuilt.debugDescription)")
        fuzzCheck(
            again.mediaType == parsed.mediaType, "media type \(again.mediaType.debugDescription) vs \(parsed.mediaType.debugDescription)")
        return true
    }
}
