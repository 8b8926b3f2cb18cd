import WebImageCore

/// What makes two loads the same work, so they share one pipeline run: the decoded
/// image's key and the options that change what the pipeline does. Loads with their own
/// headers, credential, caches or downloader get a key of their own.
public struct ImageLoadKey: Hashable, Sendable, CustomStringConvertible {
    public let imageKey: CacheKey
    let behaviour: UInt32
    /// Zero for a load that may share; a unique number otherwise.
    let individual: UInt64

    init(request: ImageRequest, individual: UInt64) {
        imageKey = request.imageKey
        behaviour = request.options.intersection(.behaviour).rawValue
        self.individual = individual
    }

    public var description: String { imageKey.string }
}
