import WebImageCore

/// What one load needs beyond its URL and options: a thumbnail size, transformers, extra
/// request headers, a credential, or caches and a downloader other than the manager's.
///
/// Loads whose contexts carry headers, a credential or other caches or downloader do
/// their own work (the downloader still shares a transfer between identical requests).
/// Loads under the same URL policy share work as loads with no context do.
public struct ImageLoadContext: Sendable {
    /// Decode so that the longer side is at most this many pixels (JPEG scales while
    /// decoding; other formats are scaled right after). Part of the image's cache key.
    public var thumbnailPixelSize: Int?
    /// Applied in order after decoding; their identifiers are part of the image's cache key.
    public var transformers: [any ImageTransforming]
    /// Sent with the download (the downloader's default headers still apply).
    public var headers: HTTPHeaderFields
    /// Offered when the server asks (401) for this request's own origin.
    public var credential: Credential?
    /// Replaces the manager's memory cache for this load.
    public var memoryCache: (any MemoryCaching<CacheKey, DecodedImage>)?
    /// Replaces the manager's disk cache for this load.
    public var diskCache: (any DataCaching)?
    /// Replaces the manager's downloader for this load.
    public var downloader: (any ImageDownloading)?
    /// Replaces the manager's ``ImageManager/Configuration/cachePolicy`` for this load.
    public var cachePolicy: CachePolicy?
    /// Replaces the manager's ``ImageManager/Configuration/cachedResponseHandler`` for
    /// this load.
    public var cachedResponseHandler: CachedResponseHandler?
    /// Which URLs and addresses this load may reach, replacing the transport's
    /// (`TransportConfiguration.urlPolicy`) for its download and redirects. Its URL rules
    /// are checked before either cache is read, so a refused URL fails the same way
    /// whether or not it is cached.
    public var urlPolicy: URLPolicy?

    public init(
        thumbnailPixelSize: Int? = nil,
        transformers: [any ImageTransforming] = [],
        headers: HTTPHeaderFields = [:],
        credential: Credential? = nil,
        memoryCache: (any MemoryCaching<CacheKey, DecodedImage>)? = nil,
        diskCache: (any DataCaching)? = nil,
        downloader: (any ImageDownloading)? = nil,
        cachePolicy: CachePolicy? = nil,
        cachedResponseHandler: CachedResponseHandler? = nil,
        urlPolicy: URLPolicy? = nil
    ) {
        self.thumbnailPixelSize = thumbnailPixelSize
        self.transformers = transformers
        self.headers = headers
        self.credential = credential
        self.memoryCache = memoryCache
        self.diskCache = diskCache
        self.downloader = downloader
        self.cachePolicy = cachePolicy
        self.cachedResponseHandler = cachedResponseHandler
        self.urlPolicy = urlPolicy
    }

    /// Whether this load must do its own work rather than share another's.
    var isIndividual: Bool {
        !headers.isEmpty || credential != nil || memoryCache != nil || diskCache != nil || downloader != nil
            || cachePolicy != nil || cachedResponseHandler != nil
    }
}
