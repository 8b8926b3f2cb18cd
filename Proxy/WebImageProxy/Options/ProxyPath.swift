import Foundation

/// A proxy request's path taken apart, in either of imgproxy's source forms:
/// `/{signature}/{option}/.../plain/{percent-encoded source URL}[@{extension}]`, or
/// `/{signature}/{option}/.../{URL-safe base64 of the source URL}[.{extension}]` (the
/// base64 may be split by `/` into segments of any length).
///
/// A plain source URL is percent-decoded once. It may be left unencoded when it holds no
/// `@`, `?` or `#` (the last `@` starts the extension, and a query would be the proxy
/// URL's own); encode it whole to be safe. The options are the segments before `plain`;
/// without a `plain` segment they are the leading segments that hold a `:`, and the
/// first segment without one starts the base64 source.
public struct ProxyPath: Sendable, Hashable {
    /// The first segment: the URL-safe base64 HMAC, or anything (`unsafe`, `_`) when the
    /// proxy has no key.
    public let signature: String
    /// Everything after the signature, from its `/`, exactly as sent: what is signed.
    public let signedPath: String
    /// The option segments, in order (`rs:fit:300:300`, `q:80`, ...).
    public var optionSegments: [String] { optionPieces.map(String.init) }
    /// The option segments as read, slices of the path: the parser reads them without a
    /// copy.
    let optionPieces: [Substring]
    /// The image to process.
    public let source: URL
    /// The format an `@jpeg` (`.jpeg` after a base64 source), `@png` or `@webp` suffix
    /// asks for.
    public let extensionFormat: OutputFormat?

    /// - Throws: ``ProxyError`` (400) naming what is missing or wrong.
    public init(_ path: String) throws(ProxyError) {
        guard path.hasPrefix("/") else { throw ProxyError(.badOptions, "the path must start with /") }
        let afterSlash = path.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: "/"), signatureEnd != afterSlash.startIndex else {
            throw ProxyError(.badOptions, "the path is /{signature}/{options}/plain/{source URL}")
        }
        signature = String(afterSlash[..<signatureEnd])
        signedPath = String(afterSlash[signatureEnd...])
        let segments = signedPath.dropFirst().pieces(separatedBy: UInt8(ascii: "/"))
        let decoded: (url: String, format: String?)
        if let plain = segments.firstIndex(of: "plain"), plain < segments.count - 1 {
            optionPieces = segments[..<plain].filter { !$0.isEmpty }
            // The rest of the path as sent, its slashes included.
            decoded = try Self.plainSource(signedPath[segments[plain + 1].startIndex...])
        } else {
            let sourceStart = segments.firstIndex { !$0.contains(":") && !$0.isEmpty } ?? segments.endIndex
            optionPieces = segments[..<sourceStart].filter { !$0.isEmpty }
            guard sourceStart < segments.endIndex else {
                throw ProxyError(.badOptions, "no source URL after the options (plain/{URL} or its base64)")
            }
            decoded = try Self.base64Source(segments[sourceStart...].joined())
        }
        if let name = decoded.format {
            guard let named = OutputFormat(name: name) else {
                throw ProxyError(
                    .badOptions, "\"\(name)\" is not an output format (jpeg, png, webp, avif); encode an @ in the source as %40")
            }
            extensionFormat = named
        } else {
            extensionFormat = nil
        }
        guard let url = URL(string: decoded.url), let scheme = url.scheme, !scheme.isEmpty, url.host != nil || scheme == "data" else {
            throw ProxyError(.badOptions, "the source \"\(decoded.url)\" is not an absolute URL")
        }
        source = url
    }

    /// A percent-encoded source and the extension after its last `@`.
    private static func plainSource(_ encoded: Substring) throws(ProxyError) -> (url: String, format: String?) {
        var source = encoded
        var format: String?
        if let at = source.lastIndex(of: "@") {
            format = String(source[source.index(after: at)...])
            source = source[..<at]
        }
        guard let url = source.percentDecoded, !url.isEmpty else {
            throw ProxyError(.badOptions, "the source URL is empty or badly percent-encoded")
        }
        return (url, format)
    }

    /// A URL-safe base64 source (padding optional) and the extension after its `.`.
    private static func base64Source(_ encoded: String) throws(ProxyError) -> (url: String, format: String?) {
        let parts = encoded.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw ProxyError(.badOptions, "more than one extension after the base64 source") }
        guard !parts[0].isEmpty, let data = Data(base64URLEncoded: String(parts[0])), let url = String(data: data, encoding: .utf8),
            !url.isEmpty
        else {
            throw ProxyError(.badOptions, "the source is neither /plain/{URL} nor URL-safe base64")
        }
        let format = parts.count == 2 && !parts[1].isEmpty ? String(parts[1]) : nil
        return (url, format)
    }
}
