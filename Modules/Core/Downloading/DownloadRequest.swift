import Foundation

/// One image download: the URL, the per-request choices, and how to deliver.
///
/// What is not set here comes from the downloader's configuration (default headers,
/// timeouts, body limit, retry policy).
public struct DownloadRequest: Sendable {
    public var url: URL
    /// Headers for this request, over the downloader's defaults.
    public var headers: HTTPHeaderFields
    public var options: DownloadOptions
    /// Where a waiting download stands in the queue. ``DownloadOptions/lowPriority`` and
    /// ``DownloadOptions/highPriority`` set it to `.low` and `.high` when it is `.normal`.
    public var priority: DownloadPriority
    /// A credential offered when the server asks (401); part of the coalescing key, so
    /// requests with different credentials never share a transfer.
    public var credential: Credential?
    /// Validators for a conditional request (``DownloadOptions/revalidate``): a 304
    /// answer completes with ``DownloadResult/isNotModified`` and no body.
    public var validators: TransportRequest.Validators?
    /// Overrides the downloader's whole-transfer timeout. The downloader's stall timeout
    /// (no byte for 10 s by default, `ImageDownloader.Configuration.stallTimeout`) still
    /// applies: a response the server holds quiet on purpose needs that one lengthened
    /// or turned off too.
    public var timeout: Duration?
    /// Overrides the downloader's retry policy for this request.
    public var retryPolicy: RetryPolicy?
    /// Which URLs and addresses this download may reach, replacing the transport's for
    /// this request (and its redirects); `nil` uses the transport's. Part of the
    /// coalescing key.
    public var urlPolicy: URLPolicy?

    public init(
        url: URL,
        headers: HTTPHeaderFields = [:],
        options: DownloadOptions = [],
        priority: DownloadPriority = .normal,
        credential: Credential? = nil,
        validators: TransportRequest.Validators? = nil,
        timeout: Duration? = nil,
        retryPolicy: RetryPolicy? = nil,
        urlPolicy: URLPolicy? = nil
    ) {
        self.url = url
        self.headers = headers
        self.options = options
        self.priority = priority
        self.credential = credential
        self.validators = validators
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.urlPolicy = urlPolicy
    }

    /// The queue priority after the low and high priority options.
    public var effectivePriority: DownloadPriority {
        guard priority == .normal else { return priority }
        if options.contains(.highPriority) { return .high }
        if options.contains(.lowPriority) { return .low }
        return .normal
    }

    /// Queues the request at `priority` when that is above its effective priority (the
    /// priority options, which would otherwise win over `.normal`, are taken off).
    package mutating func raisePriority(to priority: DownloadPriority) {
        guard priority > effectivePriority else { return }
        self.priority = priority
        options.remove([.lowPriority, .highPriority])
    }
}

/// Per-request download choices (SDWebImageDownloaderOptions, the ones a Linux
/// downloader can honour).
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Hand subscribers the body received so far as it grows (``ReceivedBody``), for
    /// partial images made above the downloader.
    public static let progressive = DownloadOptions(rawValue: 1 << 0)
    /// Queue at low priority.
    public static let lowPriority = DownloadOptions(rawValue: 1 << 1)
    /// Queue at high priority.
    public static let highPriority = DownloadOptions(rawValue: 1 << 2)
    /// Send the request's ``DownloadRequest/validators`` (If-None-Match,
    /// If-Modified-Since) so an unchanged image costs a 304 and no body.
    public static let revalidate = DownloadOptions(rawValue: 1 << 3)
    /// Accept any server certificate for this request: expired, self-signed, for another
    /// host. Only for development servers; never the default.
    public static let allowInvalidCertificates = DownloadOptions(rawValue: 1 << 4)
    /// Retry transient failures with the downloader's retry policy (or the default one)
    /// even when the downloader does not retry by default.
    public static let retryTransientFailures = DownloadOptions(rawValue: 1 << 5)
    /// Send and store cookies (SDWebImage's `HandleCookies`): the transfer sets
    /// `TransportRequest.usesCookies`, so cookies live in the transport's in-memory jar.
    /// Off by default. Part of the coalescing key: a download with cookies never shares
    /// a transfer with one without.
    public static let handleCookies = DownloadOptions(rawValue: 1 << 6)
}
