import WebImageCore

/// Which cache layers a load uses, resolved in one place: the load's context's, else
/// the manager's.
extension ImageManager {
    /// The memory cache `request` reads and fills.
    func memoryCache(for request: ImageRequest) -> (any MemoryCaching<CacheKey, DecodedImage>)? {
        request.context.memoryCache ?? memoryCache
    }

    /// The disk cache `request` reads and fills; none with
    /// ``ImageLoadOptions/memoryCacheOnly``.
    func diskCache(for request: ImageRequest) -> (any DataCaching)? {
        request.options.contains(.memoryCacheOnly) ? nil : (request.context.diskCache ?? diskCache)
    }

    /// The fleet's shared tier `request` reads and fills; none with
    /// ``ImageLoadOptions/memoryCacheOnly``.
    func sharedCache(for request: ImageRequest) -> (any SharedDataCaching)? {
        request.options.contains(.memoryCacheOnly) ? nil : configuration.sharedCache
    }
}
