import Foundation

/// A `data:` URL (RFC 2397): `data:[<mediatype>][;base64],<data>`.
///
/// SPI (`@_spi(Fuzzing)`) rather than `package`: the fuzz harnesses in Tools/ are a package
/// of their own.
@_spi(Fuzzing)
public struct DataURL {
    public var mediaType: String
    public var bytes: Data

    /// `nil` when the URL is not a well-formed data URL.
    public init?(_ url: URL) {
        let text = url.absoluteString
        guard text.count > 5, text.prefix(5).lowercased() == "data:", let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        let payload = text[text.index(after: comma)...]
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let type = parameters.first.map { $0.isEmpty ? "text/plain" : $0 } ?? "text/plain"
        mediaType = ([type] + parameters.dropFirst()).joined(separator: ";")
        guard let decoded = payload.removingPercentEncoding else { return nil }
        if isBase64 {
            guard let data = Data(base64Encoded: decoded, options: .ignoreUnknownCharacters) else { return nil }
            bytes = data
        } else {
            bytes = Data(decoded.utf8)
        }
    }
}
