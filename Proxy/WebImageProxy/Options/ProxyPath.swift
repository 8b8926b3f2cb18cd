import Foundation

/// A proxy request's path taken apart:
/// `/{signature}/{option}/{option}/.../plain/{percent-encoded source URL}[@{extension}]`.
///
/// The source URL is percent-decoded once. It may be left unencoded when it holds no
/// `@`, `?` or `#` (the last `@` starts the extension, and a query would be the proxy
/// URL's own); encode it whole to be safe.
public struct ProxyPath: Sendable, Hashable {
    /// The first segment: the URL-safe base64 HMAC, or anything (`unsafe`, `_`) when the
    /// proxy has no key.
    public let signature: String
    /// Everything after the signature, from its `/`, exactly as sent: what is signed.
    public let signedPath: String
    /// The option segments, in order (`rs:fit:300:300`, `q:80`, ...).
    public let optionSegments: [String]
    /// The image to process.
    public let source: URL
    /// The format an `@jpeg`, `@png` or `@webp` suffix asks for.
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
        // Options until the segment "plain"; the source is all that follows it.
        var options: [String] = []
        var rest = signedPath.dropFirst()
        while true {
            guard let end = rest.firstIndex(of: "/") else {
                throw ProxyError(.badOptions, "no /plain/ segment before the source URL")
            }
            let segment = rest[..<end]
            rest = rest[rest.index(after: end)...]
            if segment == "plain" { break }
            if !segment.isEmpty { options.append(String(segment)) }
        }
        optionSegments = options
        var encodedSource = rest
        var format: OutputFormat?
        if let at = encodedSource.lastIndex(of: "@") {
            let name = String(encodedSource[encodedSource.index(after: at)...])
            guard let named = OutputFormat(name: name) else {
                throw ProxyError(.badOptions, "\"@\(name)\" is not an output format (jpeg, png, webp); encode an @ in the source as %40")
            }
            format = named
            encodedSource = encodedSource[..<at]
        }
        extensionFormat = format
        guard let decoded = String(encodedSource).removingPercentEncoding, !decoded.isEmpty else {
            throw ProxyError(.badOptions, "the source URL is empty or badly percent-encoded")
        }
        guard let url = URL(string: decoded), let scheme = url.scheme, !scheme.isEmpty, url.host != nil || scheme == "data" else {
            throw ProxyError(.badOptions, "the source \"\(decoded)\" is not an absolute URL")
        }
        source = url
    }
}
