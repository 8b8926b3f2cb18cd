import Foundation

/// A `data:` URL (RFC 2397): `data:[<mediatype>][;base64],<data>`.
package struct DataURL {
    package var mediaType: String
    package var bytes: Data

    /// `nil` when the URL is not a well-formed data URL.
    package init?(_ url: URL) {
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
