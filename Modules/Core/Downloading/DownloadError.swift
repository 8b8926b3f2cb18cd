/// Why a download gave no body. Typed, so a caller can tell "try later" from "never".
///
/// The two cases with large payloads are `indirect` (boxed): a `DownloadEvent` carries this
/// error inline and is copied once per subscriber, so boxing keeps every event small
/// (98 bytes instead of 282) on the registry's fan-out path.
public enum DownloadError: Error, Sendable, CustomStringConvertible {
    /// The subscriber cancelled, the downloader was told to cancel everything, or the
    /// challenge handler cancelled.
    case cancelled
    /// The transfer failed: DNS, refused, reset, timeout, TLS, trust, redirects, an HTTP
    /// status of 400 or more (the error carries the status and headers), too large.
    indirect case transport(TransportError)
    /// The request modifier threw, or returned `nil`: the request was never sent.
    case requestRejected(reason: String)
    /// The response modifier refused the response (a non-image content type, say).
    indirect case responseRejected(reason: String, response: TransportResponse)

    /// Whether this is a cancellation.
    public var isCancelled: Bool {
        switch self {
        case .cancelled: true
        case .transport(let error): error.code == .cancelled
        default: false
        }
    }

    /// The HTTP status of the failed response, when there was one.
    public var statusCode: Int? {
        switch self {
        case .transport(let error): error.statusCode
        case .responseRejected(_, let response): response.statusCode
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .transport(let error): error.description
        case .requestRejected(let reason): "request rejected: \(reason)"
        case .responseRejected(let reason, let response): "response rejected (\(response.statusCode)): \(reason)"
        }
    }

    /// A transport error as a download error (a transport cancellation is `.cancelled`).
    public init(_ error: TransportError) {
        self = error.code == .cancelled ? .cancelled : .transport(error)
    }
}
