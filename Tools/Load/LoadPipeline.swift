import Foundation
import WebImage

/// The default composition (as `ImageManager(configuration:)` builds it), with the
/// registry and downloader kept so the run can check they are empty afterwards: a key
/// left in either is a load that never finished letting go of its work.
struct LoadPipeline: Sendable {
    let manager: ImageManager
    let registry: CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>
    let downloader: ImageDownloader

    /// A manager with a memory cache of `memoryCacheMiB` and a disk cache in
    /// `cacheDirectory`; everything else is the umbrella's default.
    init(memoryCacheMiB: Int, cacheDirectory: URL) {
        var configuration = WebImageConfiguration(
            cacheDirectory: cacheDirectory,
            memoryCache: MemoryCacheConfiguration(costLimit: memoryCacheMiB << 20))
        configuration.downloader.progressiveDecoders = configuration.decoders.decoders
        downloader = ImageDownloader(
            transport: CurlTransport(configuration: configuration.transport),
            registry: CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>(),
            configuration: configuration.downloader)
        registry = CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>()
        manager = ImageManager(
            downloader: downloader,
            decoders: configuration.decoders,
            registry: registry,
            memoryCache: ImageMemoryCache(configuration: configuration.memoryCache),
            diskCache: configuration.makeDiskCache(),
            configuration: configuration.manager)
    }

    /// Writes what waits for the disk, then waits (up to `limit`) for the registry and
    /// the downloader to empty: a cancelled transfer is let go on the transport's thread
    /// a moment after its last subscriber left, so "empty at once" would be too strict,
    /// while a key still there after `limit` is stuck.
    ///
    /// - Returns: the keys and downloads left, and how long emptying took.
    func settle(limit: Duration = .seconds(5)) async -> (keys: Int, downloads: Int, waited: Duration) {
        await manager.flushPendingWrites()
        let clock = ContinuousClock()
        let start = clock.now
        while registry.keyCount > 0 || downloader.activeDownloadCount > 0, clock.now - start < limit {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return (registry.keyCount, downloader.activeDownloadCount, clock.now - start)
    }
}
