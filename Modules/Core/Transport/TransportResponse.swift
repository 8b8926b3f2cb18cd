import Foundation

/// The head of a response: what arrived before the body.
public struct TransportResponse: Sendable {
    /// The URL that answered, after any redirects.
    public var url: URL
    /// The HTTP status; `200` for `file:` and `data:` URLs.
    public var statusCode: Int
    public var headers: HTTPHeaderFields
    /// `nil` for `file:` and `data:` URLs.
    public var httpVersion: NegotiatedHTTPVersion?

    public init(url: URL, statusCode: Int, headers: HTTPHeaderFields, httpVersion: NegotiatedHTTPVersion?) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.httpVersion = httpVersion
    }

    /// A `304 Not Modified` answering the request's validators: the cached copy is current.
    public var isNotModified: Bool { statusCode == 304 }

    /// `Content-Length`, when the server sent one (the size on the wire, before decoding).
    public var expectedContentLength: Int64? {
        // Digits only (RFC 9110 8.6), around them spaces and tabs: Int64 alone would read
        // "-123" and "+5". Read byte by byte; Foundation's trimming cost more than the
        // rest of a transfer's bookkeeping.
        guard let field = headers["Content-Length"] else { return nil }
        var value: Int64 = 0
        var digits = 0
        var trailing = false
        for byte in field.utf8 {
            switch byte {
            case 0x20, 0x09:
                if digits > 0 { trailing = true }
            case 0x30...0x39 where !trailing:
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                digits += 1
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// The body's size as progress counts it (`TransferProgress.expected`): the
    /// `Content-Length` of a body sent as is, `nil` for one sent content-encoded (gzip,
    /// say), whose declared length counts the encoded bytes and does not compare with the
    /// decoded bytes delivered.
    public var expectedBodyLength: Int64? {
        guard let encoding = headers["Content-Encoding"], encoding.lowercased() != "identity" else { return expectedContentLength }
        return nil
    }

    /// `Content-Type`, without parameters.
    public var mimeType: String? {
        headers["Content-Type"].map {
            ($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingHTTPWhitespace.lowercased()
        }
    }
}

/// How much of a body has arrived.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes received so far, on the wire (before content decoding).
    public var received: Int64
    /// The size announced by `Content-Length`, when there was one.
    public var expected: Int64?

    public init(received: Int64, expected: Int64?) {
        self.received = received
        self.expected = expected
    }

    /// `received / expected` in 0...1, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(received) / Double(expected))
    }
}
