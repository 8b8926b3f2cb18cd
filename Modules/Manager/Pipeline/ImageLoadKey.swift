import WebImageCore

/// What makes two loads the same work, so they share one pipeline run: the decoded
/// image's key, the options that change what the pipeline does, and the URL policy the
/// load is held to. Loads with their own headers, credential, caches or downloader get a
/// key of their own.
public struct ImageLoadKey: Hashable, Sendable, CustomStringConvertible {
    public let imageKey: CacheKey
    let behaviour: UInt32
    /// The context's URL policy: loads under the same policy share a run (an image
    /// proxy's sources, every one loaded under the proxy's policy), loads under different
    /// ones never do, since each must be refused or allowed by its own.
    let urlPolicy: URLPolicy?
    /// Zero for a load that may share; a unique number otherwise.
    let individual: UInt64

    init(request: ImageRequest, individual: UInt64) {
        imageKey = request.imageKey
        behaviour = request.options.intersection(.behaviour).rawValue
        urlPolicy = request.context.urlPolicy
        self.individual = individual
    }

    public var description: String { imageKey.string }
}
