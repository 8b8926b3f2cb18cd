import Foundation

/// The head of a response: what arrived before the body.
public struct TransportResponse: Sendable {
    /// The URL that answered, after any redirects.
    public var url: URL
    /// The HTTP status; `200` for `file:` and `data:` URLs.
    public var statusCode: Int
    public var headers: HTTPHeaders
    /// `nil` for `file:` and `data:` URLs.
    public var httpVersion: HTTPVersion?

    public init(url: URL, statusCode: Int, headers: HTTPHeaders, httpVersion: HTTPVersion?) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.httpVersion = httpVersion
    }

    /// A `304 Not Modified` answering the request's validators: the cached copy is current.
    public var isNotModified: Bool { statusCode == 304 }

    /// `Content-Length`, when the server sent one (the size on the wire, before decoding).
    public var expectedContentLength: Int64? {
        // Digits only (RFC 9110 8.6): Int64 alone would read "-123" and "+5".
        headers["Content-Length"].map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } ? Int64($0) : nil }
    }

    /// `Content-Type`, without parameters.
    public var mimeType: String? {
        headers["Content-Type"].map {
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
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
