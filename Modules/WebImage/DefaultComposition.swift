import WebImageCache
import WebImageCallbackRegistry
import WebImageCore
import WebImageDecoding
import WebImageManager
import WebImageOperations
import WebImageTransport

/// The parts of the default composition, as ``ImageManager/init(configuration:)`` wires
/// them, each kept so that the package's tests and tools can look inside after a run
/// (a key left in a registry, a download still running) while exercising exactly what an
/// app gets.
package struct DefaultComposition: Sendable {
    package typealias DownloadRegistry = CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>
    package typealias LoadRegistry = CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>

    /// A ``CurlTransport`` under an ``ImageDownloader`` whose partial images come from
    /// the same decoders as the final ones (unless the configuration names others).
    package let downloader: ImageDownloader
    package let downloadRegistry: DownloadRegistry
    package let loadRegistry: LoadRegistry
    package let memoryCache: ImageMemoryCache
    /// `nil` without a cache directory.
    package let diskCache: DiskCache?
    package let decoders: ImageDecoderRegistry
    package let managerConfiguration: ImageManager.Configuration

    package init(configuration: WebImageConfiguration) {
        var downloaderConfiguration = configuration.downloader
        if downloaderConfiguration.progressiveDecoders.isEmpty {
            downloaderConfiguration.progressiveDecoders = configuration.decoders.decoders
        }
        downloadRegistry = DownloadRegistry()
        downloader = ImageDownloader(
            transport: CurlTransport(configuration: configuration.transport), registry: downloadRegistry,
            configuration: downloaderConfiguration)
        loadRegistry = LoadRegistry()
        memoryCache = ImageMemoryCache(configuration: configuration.memoryCache)
        diskCache = configuration.makeDiskCache()
        decoders = configuration.decoders
        managerConfiguration = configuration.manager
    }
}

extension ImageManager {
    /// The manager over `parts`.
    package convenience init(_ parts: DefaultComposition) {
        self.init(
            downloader: parts.downloader,
            decoders: parts.decoders,
            registry: parts.loadRegistry,
            memoryCache: parts.memoryCache,
            diskCache: parts.diskCache,
            configuration: parts.managerConfiguration)
    }
}
