import Foundation

/// What the proxy reads from an HTTP request, apart from any server framework.
public struct ProxyRequest: Sendable, Hashable {
    /// The path as sent, still percent-encoded, without the query.
    public var path: String
    /// The `Accept` header, for the format choice.
    public var accept: String?
    /// The `If-None-Match` header, answered with 304 when it names the output's tag.
    public var ifNoneMatch: String?
    /// The `Sec-CH-DPR` (else `DPR`) client hint, read when the proxy uses client hints.
    public var dprHint: String?
    /// The `Sec-CH-Width` (else `Width`) client hint, read when the proxy uses client hints.
    public var widthHint: String?

    public init(
        path: String, accept: String? = nil, ifNoneMatch: String? = nil, dprHint: String? = nil, widthHint: String? = nil
    ) {
        self.path = path
        self.accept = accept
        self.ifNoneMatch = ifNoneMatch
        self.dprHint = dprHint
        self.widthHint = widthHint
    }
}

/// The proxy's answer, apart from any server framework.
public struct ProxyResponse: Sendable {
    public var status: Int
    /// Header names and values, in order (`Content-Type`, `ETag`, ...).
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (compared without case).
    public subscript(header name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What the proxy has done since it started, for a log line, a test or a gauge.
public struct ProxyStatistics: Sendable, Hashable {
    /// Requests answered, whatever the status.
    public var requests = 0
    /// Outputs answered from the output cache.
    public var outputCacheHits = 0
    /// Outputs made: one source load, one decode and one encode each.
    public var renders = 0
    /// Outputs answered from the stored results (disk or shared tier), no render made.
    public var storedResultHits = 0
    /// Sources this process asked the origin for (downloaded, or revalidated with it);
    /// a source found in the sources' disk cache or the shared tier is not one.
    public var sourceFetches = 0
    /// Requests that waited for a render another request had started.
    public var coalesced = 0
    /// Requests refused with 429.
    public var refusedBusy = 0
    /// Answers with a status of 400 or more.
    public var failures = 0
}

/// A finished output: bytes, their type, strong tag and how a browser saves them.
struct RenderedOutput: Sendable {
    let data: Data
    let contentType: String
    /// `inline` or `attachment`, with the file name (`Content-Disposition`).
    let disposition: String
    let entityTag: String
    /// Whether the format was chosen by the request's `Accept`.
    let variesByAccept: Bool
}

/// What identifies an output: the source, the options that shape it, and the format or
/// the way it is chosen. The expiry is not part of it: two signed URLs for one output
/// share it.
struct OutputKey: Hashable, Sendable {
    let source: String
    let options: ProcessingOptions
    /// The format the URL names.
    let named: OutputFormat?
    /// The preferred format the client's `Accept` takes (`FormatChoice.negotiated`).
    let negotiated: OutputFormat?
}

/// One piece of the proxy's work that identical requests share while it runs: an
/// output's render, or an `/info` answer.
enum ProxyWork: Hashable, Sendable {
    case output(OutputKey)
    case info(InfoKey)
}
