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
///
/// SPI (`@_spi(Tooling) import WebImage`), not API: the tools and tests live in packages of
/// their own (Tools/, Tests/), so `package` would not reach them, and apps should not
/// build on these parts.
@_spi(Tooling)
public struct DefaultComposition: Sendable {
    public typealias DownloadRegistry = CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>
    public typealias LoadRegistry = CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>

    /// A ``CurlTransport`` under an ``ImageDownloader`` whose partial images come from
    /// the same decoders as the final ones (unless the configuration names others).
    public let downloader: ImageDownloader
    public let downloadRegistry: DownloadRegistry
    public let loadRegistry: LoadRegistry
    public let memoryCache: ImageMemoryCache
    /// `nil` without a cache directory.
    public let diskCache: DiskCache?
    public let decoders: ImageDecoderRegistry
    public let managerConfiguration: ImageManager.Configuration

    public init(configuration: WebImageConfiguration) {
        var downloaderConfiguration = configuration.downloader
        if downloaderConfiguration.progressiveDecoders.isEmpty {
            downloaderConfiguration.progressiveDecoders = configuration.decoders.colorManagedDecoders
        }
        downloaderConfiguration.partialDownloads = configuration.makePartialDownloadStore()
        var transportConfiguration = configuration.transport
        // The transport's default Accept names the built-in formats; with a registry of
        // other formats, the header names what will actually be decoded.
        if transportConfiguration.accept == TransportConfiguration.defaultAccept {
            transportConfiguration.accept = configuration.decoders.acceptHeader
        }
        if configuration.postsNotifications {
            let broadcaster = NotificationBroadcaster()
            transportConfiguration.eventMonitors.append(broadcaster)
            downloaderConfiguration.eventMonitor =
                downloaderConfiguration.eventMonitor.map {
                    CompositeDownloadEventMonitor([$0, broadcaster])
                } ?? broadcaster
        }
        downloadRegistry = DownloadRegistry()
        downloader = ImageDownloader(
            transport: CurlTransport(configuration: transportConfiguration), registry: downloadRegistry,
            configuration: downloaderConfiguration)
        loadRegistry = LoadRegistry()
        memoryCache = ImageMemoryCache(configuration: configuration.memoryCache)
        diskCache = configuration.makeDiskCache()
        decoders = configuration.decoders
        managerConfiguration = configuration.manager
    }

    /// Shuts down the transport the composition made (``CurlTransport/shutdown()``):
    /// call it once the managers over these parts are done.
    public func shutdown() async {
        await downloader.transport.shutdown()
    }
}

@_spi(Tooling)
extension ImageManager {
    /// The manager over `parts`.
    public convenience init(_ parts: DefaultComposition) {
        self.init(
            downloader: parts.downloader,
            decoders: parts.decoders,
            registry: parts.loadRegistry,
            memoryCache: parts.memoryCache,
            diskCache: parts.diskCache,
            configuration: parts.managerConfiguration)
    }
}
