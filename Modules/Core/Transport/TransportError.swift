import Foundation

/// Why a transfer failed. Every libcurl result maps to a specific case; the message keeps
/// libcurl's own detail (its error buffer) for logs.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The URL cannot be used: malformed, or a scheme other than http, https, file, data.
        public static let invalidURL = Code("invalidURL")
        /// The transfer was cancelled.
        public static let cancelled = Code("cancelled")
        /// The host name did not resolve.
        public static let dnsFailure = Code("dnsFailure")
        /// Nothing listens at the address, or the host is unreachable.
        public static let connectionRefused = Code("connectionRefused")
        /// The connection broke while sending or receiving.
        public static let connectionReset = Code("connectionReset")
        /// The connection did not open within the connect timeout.
        public static let connectTimeout = Code("connectTimeout")
        /// The whole transfer took longer than its total timeout.
        public static let timedOut = Code("timedOut")
        /// No byte arrived for the stall timeout.
        public static let stalled = Code("stalled")
        /// The TLS handshake failed (protocol, cipher, client certificate refused, ...).
        public static let tlsFailure = Code("tlsFailure")
        /// The server's certificate was not trusted; ``TransportError/trustFailure`` says why.
        public static let serverTrustFailed = Code("serverTrustFailed")
        /// More redirects than the request allows (redirect loops end here too).
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A redirect from https to http, refused by the request's redirect policy.
        public static let insecureRedirect = Code("insecureRedirect")
        /// A 3xx without a usable `Location`.
        public static let badRedirect = Code("badRedirect")
        /// The server answered with a status of 400 or above; ``TransportError/response``
        /// has the status and headers.
        public static let httpStatus = Code("httpStatus")
        /// The body is larger than the request's maximum.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// Fewer bytes arrived than `Content-Length` announced, or the connection closed
        /// mid-body.
        public static let truncatedBody = Code("truncatedBody")
        /// The server's response could not be parsed.
        public static let badResponse = Code("badResponse")
        /// The body's `Content-Encoding` could not be decoded.
        public static let contentDecodingFailed = Code("contentDecodingFailed")
        /// Authentication was required and no usable credential was given, or the
        /// challenge handler cancelled.
        public static let authenticationFailed = Code("authenticationFailed")
        /// A `file:` URL names a file that does not exist or cannot be read.
        public static let fileNotFound = Code("fileNotFound")
        /// The transport was shut down.
        public static let transportClosed = Code("transportClosed")
        /// Anything else libcurl reports; ``TransportError/curlCode`` says what.
        public static let other = Code("other")
    }

    public var code: Code
    public var message: String
    /// The URL being fetched when the failure happened.
    public var url: URL?
    /// The response head, for ``Code/httpStatus`` and failed authentication.
    public var response: TransportResponse?
    /// Why the server was not trusted, for ``Code/serverTrustFailed``.
    public var trustFailure: ServerTrustError?
    /// libcurl's `CURLcode`, when the failure came from libcurl.
    public var curlCode: Int?

    public init(
        _ code: Code, _ message: String, url: URL? = nil, response: TransportResponse? = nil,
        trustFailure: ServerTrustError? = nil, curlCode: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.response = response
        self.trustFailure = trustFailure
        self.curlCode = curlCode
    }

    /// The HTTP status of an ``Code/httpStatus`` failure.
    public var statusCode: Int? { response?.statusCode }

    public var description: String {
        var text = "\(code): \(message)"
        if let url { text += " (\(url.absoluteString))" }
        return text
    }
}
