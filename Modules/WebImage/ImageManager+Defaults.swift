import Foundation
import WebImageCache
import WebImageCallbackRegistry
import WebImageCore
import WebImageDecoding
import WebImageManager
import WebImageOperations
import WebImageTransport

extension ImageManager {
    /// A manager composed of the default modules as `configuration` says: a
    /// ``CurlTransport`` under an ``ImageDownloader`` (partial images from the same
    /// decoders), a ``MemoryCache`` and, when there is a cache directory, a ``DiskCache``.
    public convenience init(configuration: WebImageConfiguration) {
        var downloaderConfiguration = configuration.downloader
        if downloaderConfiguration.progressiveDecoders.isEmpty {
            downloaderConfiguration.progressiveDecoders = configuration.decoders.decoders
        }
        let downloader = ImageDownloader(
            transport: CurlTransport(configuration: configuration.transport),
            registry: CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>(),
            configuration: downloaderConfiguration)
        self.init(
            downloader: downloader,
            decoders: configuration.decoders,
            registry: CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>(),
            memoryCache: ImageMemoryCache(configuration: configuration.memoryCache),
            diskCache: configuration.makeDiskCache(),
            configuration: configuration.manager)
    }

    /// A manager with the default configuration, made on first use; caches under
    /// ``WebImageConfiguration/defaultCacheDirectory``.
    public static let shared = ImageManager(configuration: WebImageConfiguration())
}
