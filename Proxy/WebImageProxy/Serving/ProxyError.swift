/// Why the proxy did not answer with an image: an HTTP status and one line saying why,
/// which is the response's body.
public struct ProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, and the status it answers with.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        public let name: String
        public let status: Int

        /// 400: the options or the path do not parse.
        public static let badOptions = Reason(name: "badOptions", status: 400)
        /// 403: the signature is missing or wrong.
        public static let badSignature = Reason(name: "badSignature", status: 403)
        /// 403: a signed URL whose `exp:` has passed.
        public static let expired = Reason(name: "expired", status: 403)
        /// 403: the source URL is refused by the URL policy (scheme, host, or an address
        /// that is not public), before any connection or at the address connected to.
        public static let sourceForbidden = Reason(name: "sourceForbidden", status: 403)
        /// 404: the source answered 404 or 410.
        public static let sourceNotFound = Reason(name: "sourceNotFound", status: 404)
        /// 415: the source is not an image in a format the proxy reads.
        public static let notAnImage = Reason(name: "notAnImage", status: 415)
        /// 422: the source is over a limit (bytes, resolution over all frames, frames).
        public static let tooLarge = Reason(name: "tooLarge", status: 422)
        /// 422: the source is an image, but a broken one (truncated, corrupt).
        public static let brokenImage = Reason(name: "brokenImage", status: 422)
        /// 422: the output would be over the result limits (``ResultLimits``).
        public static let resultTooLarge = Reason(name: "resultTooLarge", status: 422)
        /// 429: the processing queue is full; the response carries `Retry-After`.
        public static let busy = Reason(name: "busy", status: 429)
        /// 500: encoding failed (an internal error, never the source's fault).
        public static let processingFailed = Reason(name: "processingFailed", status: 500)
        /// 502: the source could not be fetched (connection, TLS, a 5xx or other status).
        public static let sourceFailed = Reason(name: "sourceFailed", status: 502)
        /// 503: the proxy is shutting down.
        public static let shuttingDown = Reason(name: "shuttingDown", status: 503)
        /// 504: the source took longer than the configured timeout.
        public static let sourceTimeout = Reason(name: "sourceTimeout", status: 504)

        public var description: String { "\(name) (\(status))" }
    }

    public let reason: Reason
    /// One line for the response body and the log.
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The HTTP status of the answer.
    public var status: Int { reason.status }

    public var description: String { "\(reason.status) \(reason.name): \(message)" }
}
