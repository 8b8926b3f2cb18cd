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
    public var optionSegments: [String] {
        var segments: [String] = []
        try? forEachOption { segments.append($0.string) }
        return segments
    }
    /// Where the options end in ``signedPath``, a UTF-8 offset: they are its non-empty
    /// segments before it, read again in place when the options are parsed.
    private let optionsEnd: Int
    /// The image to process.
    public let source: URL
    /// The format an `@jpeg` (`.jpeg` after a base64 source), `@png` or `@webp` suffix
    /// asks for.
    public let extensionFormat: OutputFormat?

    /// - Throws: ``ProxyError`` (400) naming what is missing or wrong.
    public init(_ path: String) throws(ProxyError) {
        // The path is read as bytes once: its segments are offset ranges, and only the
        // signature, the signed path and the source become strings. A path with a
        // separator beside a non-ASCII byte is read by characters instead.
        let parsed = try withPathText(path) { (bytes) throws(ProxyError) in
            bytes.joinsSeparatorToNonASCII ? try Parsed(characters: path) : try Parsed(bytes)
        }
        signature = parsed.signature
        signedPath = parsed.signedPath
        optionsEnd = parsed.optionsEnd
        let decoded = parsed.source
        if let name = decoded.format {
            guard let named = OutputFormat(name: name) else {
                throw ProxyError(
                    .badOptions, "\"\(name)\" is not an output format (jpeg, png, webp, avif); encode an @ in the source as %40")
            }
            extensionFormat = named
        } else {
            extensionFormat = nil
        }
        guard let url = URL(string: decoded.url), SourceURLSyntax.hasSchemeAndHost(decoded.url) || Self.hasSchemeAndHost(url) else {
            throw ProxyError(.badOptions, "the source \"\(decoded.url)\" is not an absolute URL")
        }
        source = url
    }

    /// Calls `body` with each option segment, in order, read in place.
    func forEachOption(_ body: (PathText) throws(ProxyError) -> Void) throws(ProxyError) {
        let end = optionsEnd
        guard end > 1 else { return }
        try withPathText(signedPath) { (path) throws(ProxyError) in
            var start = 1
            for offset in 1...end where offset == end || path[offset] == UInt8(ascii: "/") {
                if offset > start { try body(path[start..<offset]) }
                start = offset + 1
            }
        }
    }

    /// What `URL` itself says of a source the syntax check could not vouch for.
    private static func hasSchemeAndHost(_ url: URL) -> Bool {
        guard let scheme = url.scheme, !scheme.isEmpty else { return false }
        return url.host != nil || scheme == "data"
    }

    /// The parts of a path as its bytes give them, before the source is a `URL`.
    struct Parsed {
        let signature: String
        let signedPath: String
        let optionsEnd: Int
        let source: (url: String, format: String?)

        init(_ path: PathText) throws(ProxyError) {
            guard path.count > 0, path[0] == UInt8(ascii: "/") else { throw ProxyError(.badOptions, "the path must start with /") }
            guard let slash = path.dropping(1).firstOffset(of: UInt8(ascii: "/")), slash != 0 else {
                throw ProxyError(.badOptions, "the path is /{signature}/{options}/plain/{source URL}")
            }
            let signatureEnd = slash + 1
            signature = path[1..<signatureEnd].string
            let signed = path.dropping(signatureEnd)
            signedPath = signed.string
            // The segments after the signed path's leading `/`: the first `plain` one that
            // is not the last starts a plain source; otherwise the first non-empty one
            // without a `:` starts a base64 source.
            var start = 1
            var firstWithoutColon: Int?
            var hasColon = false
            var plainSourceStart: Int?
            for offset in 1...signed.count {
                guard offset < signed.count, signed[offset] != UInt8(ascii: "/") else {
                    if firstWithoutColon == nil, !hasColon, offset > start { firstWithoutColon = start }
                    if signed[start..<offset].is("plain") {
                        if offset < signed.count { plainSourceStart = offset + 1 }
                        break
                    }
                    start = offset + 1
                    hasColon = false
                    continue
                }
                if signed[offset] == UInt8(ascii: ":") { hasColon = true }
            }
            if let sourceStart = plainSourceStart {
                optionsEnd = sourceStart - "plain/".utf8.count - 1
                source = try Self.plainSource(signed.dropping(sourceStart))
            } else {
                guard let sourceStart = firstWithoutColon else {
                    throw ProxyError(.badOptions, "no source URL after the options (plain/{URL} or its base64)")
                }
                optionsEnd = sourceStart - 1
                var joined = ""
                joined.reserveCapacity(signed.count - sourceStart)
                var pieceStart = sourceStart
                for offset in sourceStart...signed.count where offset == signed.count || signed[offset] == UInt8(ascii: "/") {
                    joined += signed[pieceStart..<offset].string
                    pieceStart = offset + 1
                }
                source = try ProxyPath.base64Source(joined)
            }
        }

        /// A percent-encoded source and the extension after its last `@`.
        private static func plainSource(_ encoded: PathText) throws(ProxyError) -> (url: String, format: String?) {
            var source = encoded
            var format: String?
            if let at = source.lastOffset(of: UInt8(ascii: "@")) {
                format = source.dropping(at + 1).string
                source = source[0..<at]
            }
            guard let url = source.percentDecoded, !url.isEmpty else {
                throw ProxyError(.badOptions, "the source URL is empty or badly percent-encoded")
            }
            return (url, format)
        }
    }

    /// A URL-safe base64 source (padding optional) and the extension after its `.`.
    static func base64Source(_ encoded: String) throws(ProxyError) -> (url: String, format: String?) {
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
