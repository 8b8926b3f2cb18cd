import Foundation
@_spi(Tooling) import WebImage

/// The default composition (``DefaultComposition``, what `ImageManager(configuration:)`
/// builds), with the registry and downloader kept so the run can check they are empty
/// afterwards: a key left in either is a load that never finished letting go of its work.
struct LoadPipeline: Sendable {
    let manager: ImageManager
    let registry: DefaultComposition.LoadRegistry
    let downloader: ImageDownloader
    private let parts: DefaultComposition

    /// A manager with a memory cache of `memoryCacheMiB` and a disk cache in
    /// `cacheDirectory`; everything else is the umbrella's default.
    init(memoryCacheMiB: Int, cacheDirectory: URL) {
        let parts = DefaultComposition(
            configuration: WebImageConfiguration(
                cacheDirectory: cacheDirectory,
                memoryCache: MemoryCacheConfiguration(costLimit: memoryCacheMiB << 20)))
        downloader = parts.downloader
        registry = parts.loadRegistry
        manager = ImageManager(parts)
        self.parts = parts
    }

    /// Stops the manager, then the transport the composition made.
    func shutdown() async {
        await manager.shutdown(gracePeriod: .zero)
        await parts.shutdown()
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
