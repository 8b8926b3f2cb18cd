import WebImageCore

/// Changes or rejects a request just before each attempt is sent: sign the URL, add a
/// fresh token. It may suspend (to refresh a token) and may throw; a throw or a `nil`
/// ends the download with `DownloadError.requestRejected(reason:)` and nothing is sent.
public typealias RequestModifier = @Sendable (TransportRequest) async throws -> TransportRequest?

/// Looks at each response head before the body is read, and may change it or refuse it
/// (throw) — for example to refuse a body that is not an image. A refusal stops the
/// transfer and ends the download with `DownloadError.responseRejected(reason:response:)`.
/// Runs on the transport's thread: keep it quick.
public typealias ResponseModifier = @Sendable (TransportResponse) throws -> TransportResponse

extension ImageDownloader {
    /// What every download of one downloader shares.
    public struct Configuration: Sendable {
        /// Headers sent with every request; a request's own headers win. The transport
        /// adds its Accept (the formats we decode) and User-Agent when neither sets them.
        public var defaultHeaders: HTTPHeaderFields
        /// The whole-transfer timeout of each attempt (15 s like the peers); a request's
        /// `DownloadRequest.timeout` wins.
        public var timeout: Duration
        /// How long a connection may take to be made (10 s); `nil`: libcurl's own limit.
        public var connectTimeout: Duration?
        /// No byte received for this long fails an attempt with `stalled`, however long
        /// it has run (10 s); `nil`: a quiet server is waited for until ``timeout``. A
        /// server that streams slowly on purpose (a long poll, a held response) needs a
        /// longer one.
        public var stallTimeout: Duration?
        /// Downloads running at once (6 like the peers); more wait in the queue.
        public var maximumConcurrentDownloads: Int
        public var executionOrder: ExecutionOrder
        /// Off (`RetryPolicy.none`) unless set here, or per request.
        public var retryPolicy: RetryPolicy
        /// Larger bodies fail with `bodyTooLarge` (64 MiB by default).
        public var maximumBodySize: Int64?
        public var requestModifier: RequestModifier?
        public var responseModifier: ResponseModifier?
        /// Sees the whole lifecycle; give a `CompositeDownloadEventMonitor` for several, or
        /// add more while running with ``ImageDownloader/addEventMonitor(_:delivery:)``.
        public var eventMonitor: (any DownloadEventMonitor)?
        /// Where a download that broke off after its body began (a reset, a stall, a
        /// timeout, a cancel that keeps resumable data) keeps what it received, so that
        /// the next attempt (a retry) or the next download of the resource asks only for
        /// the rest. `nil` (the default): nothing is kept, every attempt starts from byte
        /// 0. The `WebImage` umbrella puts one beside its disk cache.
        public var partialDownloads: PartialDownloadStore?
        /// Performs each attempt in place of a transfer on the downloader's transport
        /// (see ``DownloadAttemptPerforming``); `nil` (the default): the transport does.
        public var attemptPerformer: (any DownloadAttemptPerforming)?
        /// The clock the waits between attempts run on: continuous time, or a test's own
        /// so that retries need no real waiting.
        package var clock: any Clock<Duration> = ContinuousClock()

        public init(
            defaultHeaders: HTTPHeaderFields = [:],
            timeout: Duration = .seconds(15),
            connectTimeout: Duration? = .seconds(10),
            stallTimeout: Duration? = .seconds(10),
            maximumConcurrentDownloads: Int = 6,
            executionOrder: ExecutionOrder = .fifo,
            retryPolicy: RetryPolicy = .none,
            maximumBodySize: Int64? = 64 << 20,
            requestModifier: RequestModifier? = nil,
            responseModifier: ResponseModifier? = nil,
            eventMonitor: (any DownloadEventMonitor)? = nil,
            partialDownloads: PartialDownloadStore? = nil,
            attemptPerformer: (any DownloadAttemptPerforming)? = nil
        ) {
            self.defaultHeaders = defaultHeaders
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.maximumConcurrentDownloads = maximumConcurrentDownloads
            self.executionOrder = executionOrder
            self.retryPolicy = retryPolicy
            self.maximumBodySize = maximumBodySize
            self.requestModifier = requestModifier
            self.responseModifier = responseModifier
            self.eventMonitor = eventMonitor
            self.partialDownloads = partialDownloads
            self.attemptPerformer = attemptPerformer
        }
    }
}

/// Ready-made response modifiers.
public enum ResponseModifiers {
    /// Refuses a response whose Content-Type is present and is not `image/*` (an HTML
    /// error page served with 200, say). A missing Content-Type passes: the decoder sniffs
    /// the bytes anyway.
    public static let requireImageContentType: ResponseModifier = { response in
        if let type = response.mimeType, !type.hasPrefix("image/") {
            throw NotAnImage(contentType: type)
        }
        return response
    }

    struct NotAnImage: Error, CustomStringConvertible {
        let contentType: String
        var description: String { "Content-Type \(contentType) is not an image" }
    }
}
