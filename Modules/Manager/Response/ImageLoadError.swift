import Foundation
import WebImageCore

/// Why a load failed. Every failure is one of these, delivered exactly once.
public enum ImageLoadError: Error, Sendable, CustomStringConvertible {
    /// The load was cancelled (its token, its task, or the prefetcher).
    case cancelled
    /// The URL failed permanently a short while ago (see ``FailedURLSet``) and the load
    /// did not ask for ``ImageLoadOptions/retryFailed``.
    case failedRecently(URL)
    /// ``ImageLoadOptions/fromCacheOnly`` and neither cache had it.
    case notCached
    /// The download failed: transport, TLS, HTTP status, rejection.
    case download(DownloadError)
    /// The bytes are not an image we can decode (corrupt, truncated, too large, unknown).
    /// For bytes that came from the network, `response` is the response they came with
    /// (a 200 with an HTML page, a 204, a 304 nobody asked for) and `bytes` their count;
    /// for bytes read from the disk cache, `response` is `nil`.
    case decoding(ImageDecodingError, response: TransportResponse? = nil, bytes: Int? = nil)
    /// A transformer failed.
    case transform(ImageDecodingError)
    /// The manager is shutting down (``ImageManager/shutdown(gracePeriod:)``) and takes no
    /// new load.
    case shutdown

    /// The former name of ``shutdown``.
    @available(*, deprecated, renamed: "shutdown")
    public static var shutDown: ImageLoadError { .shutdown }

    public var isCancelled: Bool {
        switch self {
        case .cancelled: true
        case .download(let error): error.isCancelled
        default: false
        }
    }

    /// Whether the URL itself is at fault, so loading it again soon would fail again:
    /// HTTP 404 or 410, or bytes that do not decode. These, and only these, enter the
    /// failed-URL set; timeouts, resets, 5xx and cancellations never do.
    public var isPermanent: Bool {
        switch self {
        case .download(let error): error.statusCode == 404 || error.statusCode == 410
        case .decoding: true
        default: false
        }
    }

    /// A short, stable name of the kind of failure, for a log field or a metric
    /// dimension (few distinct values, never a URL): `cancelled`, `failedRecently`,
    /// `notCached`, `download.<TransportError code>` (`download.httpStatus`,
    /// `download.refusedByPolicy`, ...), `download.requestRejected`,
    /// `download.responseRejected`, `decoding.<ImageDecodingError code>`, `transform`,
    /// `shutdown`.
    public var errorClass: String {
        switch self {
        case .cancelled: "cancelled"
        case .failedRecently: "failedRecently"
        case .notCached: "notCached"
        case .download(.cancelled): "cancelled"
        case .download(.transport(let error)): "download.\(error.code)"
        case .download(.requestRejected): "download.requestRejected"
        case .download(.responseRejected): "download.responseRejected"
        case .decoding(let error, _, _): "decoding.\(error.code)"
        case .transform: "transform"
        case .shutdown: "shutdown"
        }
    }

    public var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .failedRecently(let url): "\(url.absoluteString) failed permanently a short while ago (retry with .retryFailed)"
        case .notCached: "not in the cache (fromCacheOnly)"
        case .download(let error): "download failed: \(error)"
        case .decoding(let error, let response?, let bytes):
            "decoding failed: \(error) (the server answered \(response.statusCode) with \(bytes ?? 0) bytes)"
        case .decoding(let error, nil, _): "decoding failed: \(error)"
        case .transform(let error): "transform failed: \(error)"
        case .shutdown: "the manager is shutting down"
        }
    }
}

/// The events of one load: progress, partial images, then exactly one result.
public typealias ImageLoadEvent = SubscriberEvent<DecodedImage, ImageResponse, ImageLoadError>
