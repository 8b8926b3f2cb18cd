import WebImageManager

extension ImageManager {
    /// A manager composed of the default modules as `configuration` says: a
    /// `CurlTransport` under an `ImageDownloader`, a `MemoryCache` and, when there is a
    /// cache directory, a `DiskCache`. The manager owns that transport:
    /// `shutdown(gracePeriod:)` shuts it down once the loads have ended.
    public convenience init(configuration: WebImageConfiguration) {
        let parts = DefaultComposition(configuration: configuration)
        self.init(parts)
        adoptPart { await parts.shutdown() }
    }

    /// A manager with the default configuration, made on first use; caches under
    /// ``WebImageConfiguration/defaultCacheDirectory``.
    public static let shared = ImageManager(configuration: WebImageConfiguration())
}
