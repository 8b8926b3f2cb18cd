import Foundation

/// Why a transfer failed. Every failure of the transport maps to a specific code; the
/// message says what happened (for libcurl's failures, its own detail), for logs.
///
/// A failure that follows a response (a status of 400 or above, a malformed or truncated
/// body, a stall, a timeout) keeps that response's head in ``response`` and the body
/// bytes that had arrived in ``bytesReceived``. The transport that produced the error may
/// attach its own cause in ``underlyingError`` (WebImageTransport's `CurlError` names
/// libcurl's result code); Core holds no C codes.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The URL cannot be used: malformed, or a scheme other than http, https, file, data.
        public static let invalidURL = Code("invalidURL")
        /// The URL policy refused the URL, a redirect's target, or the address a host name
        /// resolved to; ``TransportError/policyViolation`` names the rule. A refused
        /// address is never connected to.
        public static let refusedByPolicy = Code("refusedByPolicy")
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
        /// No byte arrived for the stall timeout (every byte the connection receives
        /// counts, head, body and framing alike).
        public static let stalled = Code("stalled")
        /// The request waited for a free connection (the host's connection limit) for its
        /// whole-transfer timeout and was never sent: the server saw nothing of it.
        public static let waitedForConnection = Code("waitedForConnection")
        /// The TLS handshake failed (protocol, cipher, client certificate refused, ...).
        public static let tlsFailure = Code("tlsFailure")
        /// The server's certificate was not trusted; ``TransportError/trustFailure`` says why.
        public static let serverTrustFailed = Code("serverTrustFailed")
        /// More redirects than the request allows (redirect loops end here too).
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A redirect from https to http, refused by the request's redirect policy.
        public static let insecureRedirect = Code("insecureRedirect")
        /// A redirect handler (``RedirectHandler``) refused a redirect;
        /// ``TransportError/response`` is the 3xx.
        public static let redirectRefused = Code("redirectRefused")
        /// A 3xx without a usable `Location` (missing, unparsable, raw non-ASCII bytes, or a
        /// scheme that is not followed).
        public static let badRedirect = Code("badRedirect")
        /// The server answered with a status of 400 or above; ``TransportError/response``
        /// has the status and headers.
        public static let httpStatus = Code("httpStatus")
        /// The body is larger than the request's maximum.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// Fewer bytes arrived than `Content-Length` announced, or the connection closed
        /// mid-body.
        public static let truncatedBody = Code("truncatedBody")
        /// The server's reply is not HTTP the transport can read: a garbage or HTTP/0.9
        /// status line, an unknown HTTP version, an empty reply, broken chunked encoding,
        /// a header line or head over the size limit. The message says what was malformed.
        public static let malformedResponse = Code("malformedResponse")
        /// The former name of ``malformedResponse``.
        @available(*, deprecated, renamed: "malformedResponse")
        public static let badResponse = malformedResponse
        /// The body's `Content-Encoding` could not be decoded.
        public static let contentDecodingFailed = Code("contentDecodingFailed")
        /// Authentication was required and no usable credential was given, or the
        /// challenge handler cancelled.
        public static let authenticationFailed = Code("authenticationFailed")
        /// A `file:` URL names a file that does not exist or cannot be read.
        public static let fileNotFound = Code("fileNotFound")
        /// The transport was shut down before this transfer started: it never touched
        /// the network.
        public static let transportClosed = Code("transportClosed")
        /// The transport was shut down (invalidated) while this transfer was under way:
        /// running, paused, waiting for a connection or for a challenge's answer. Not a
        /// cancellation by the caller, so a download it ends is a `DownloadError.transport`
        /// failure, not `DownloadError.cancelled`. The bytes delivered before it are
        /// whole; nothing follows them.
        public static let invalidated = Code("invalidated")
        /// A transfer paused over HTTP/2 past the transport's paused-body limit could not
        /// go on where it stopped when resumed: its response had no strong `ETag` (or was
        /// content-encoded), or the server's answer to the request for the rest showed
        /// another representation. The message says which; nothing of another
        /// representation was delivered.
        public static let cannotContinue = Code("cannotContinue")
        /// Anything else the transport reports; ``TransportError/underlyingError`` says
        /// what, when the transport attached it.
        public static let other = Code("other")
    }

    public var code: Code
    public var message: String
    /// The URL being fetched when the failure happened.
    public var url: URL?
    /// The response head, on every failure that follows one (``Code/httpStatus``, failed
    /// authentication, a body that broke off, a stall or timeout after the head).
    public var response: TransportResponse?
    /// The body bytes received before the failure, when a response had begun.
    public var bytesReceived: Int64?
    /// Why the server was not trusted, for ``Code/serverTrustFailed``.
    public var trustFailure: ServerTrustError?
    /// The rule that refused the transfer, for ``Code/refusedByPolicy``.
    public var policyViolation: URLPolicyViolation?
    /// The transport's own cause, for logs and diagnostics (WebImageTransport attaches
    /// a `CurlError` with libcurl's result code to the failures libcurl reported).
    public var underlyingError: (any Error & Sendable)?

    public init(
        _ code: Code, _ message: String, url: URL? = nil, response: TransportResponse? = nil,
        bytesReceived: Int64? = nil, trustFailure: ServerTrustError? = nil, underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.response = response
        self.bytesReceived = bytesReceived
        self.trustFailure = trustFailure
        self.underlyingError = underlyingError
    }

    /// The HTTP status of an ``Code/httpStatus`` failure.
    public var statusCode: Int? { response?.statusCode }

    public var description: String {
        var text = "\(code): \(message)"
        if let url { text += " (\(url.absoluteString))" }
        return text
    }
}
