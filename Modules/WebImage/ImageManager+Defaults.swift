import WebImageManager

extension ImageManager {
    /// A manager composed of the default modules as `configuration` says: a
    /// `CurlTransport` under an `ImageDownloader` (partial images from the same
    /// decoders), a `MemoryCache` and, when there is a cache directory, a `DiskCache`.
    public convenience init(configuration: WebImageConfiguration) {
        self.init(DefaultComposition(configuration: configuration))
    }

    /// A manager with the default configuration, made on first use; caches under
    /// ``WebImageConfiguration/defaultCacheDirectory``.
    public static let shared = ImageManager(configuration: WebImageConfiguration())
}
