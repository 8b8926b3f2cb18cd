import Foundation
import WebImageCache
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageManager
import WebImageOperations
import WebImageTransport

/// Everything the default composition needs, with the defaults a user would pick:
/// libcurl transport (system CAs and host name checked, HTTP/2 when the server offers
/// it, 6 connections per host), PNG/JPEG/GIF/WebP/AVIF decoders, a memory cache of decoded images
/// and a disk cache of downloaded bytes under the user's cache directory.
///
/// ```swift
/// var configuration = WebImageConfiguration()
/// configuration.transport.trustPolicy = ServerTrustManager(evaluators: ["img.example.com": pinning])
/// let manager = ImageManager(configuration: configuration)
/// ```
public struct WebImageConfiguration: Sendable {
    /// Where the disk cache keeps its files (in ``diskCacheNamespace`` below it);
    /// `nil` for no disk cache. Default: ``defaultCacheDirectory``.
    public var cacheDirectory: URL?
    public var diskCacheNamespace: String
    /// The disk cache's limits: total bytes (256 MiB) and entry age (7 days).
    public var diskCacheSizeLimit: Int
    public var diskCacheMaximumAge: TimeInterval?
    /// Whether a download that broke off keeps what it received in `partial-downloads`
    /// beside the disk cache (64 MiB, one day) and resumes from it; on by default, off
    /// without a ``cacheDirectory``. A store set in `downloader.partialDownloads` wins.
    public var keepsPartialDownloads = true
    /// The memory cache's limits: decoded bytes (an eighth of the machine's memory, at
    /// most 512 MiB, by default) and count.
    public var memoryCache: MemoryCacheConfiguration
    /// Connections, trust policy, authentication, user agent, event monitors.
    public var transport: TransportConfiguration
    /// Concurrency (6), timeout (15 s), retries (off), body limit (64 MiB), headers.
    public var downloader: ImageDownloader.Configuration
    /// Cache key filter, failed-URL retry interval, cache write failures. Made with no
    /// `transcoders`, it is given the JPEG-to-JPEG thumbnail's (`JPEGThumbnailTranscoder`),
    /// which ``ImageManager/encodedImage(for:encoder:)`` uses; set them to `[]` after
    /// this initializer for none.
    public var manager: ImageManager.Configuration
    /// The decoders; register your own to add formats. Default:
    /// `ImageDecoderRegistry.allFormats` (PNG, JPEG, GIF, WebP, AVIF). The transport's default
    /// `Accept` header follows them.
    public var decoders: ImageDecoderRegistry
    /// Posts the seeds' notifications through `NotificationCenter.default` (download
    /// start, response, stop and finish; transfer start, suspend, resume and complete):
    /// see `NotificationBroadcaster` for the names and `userInfo` keys. Off by default:
    /// nothing on Linux observes them, and each event costs a dictionary and a lock (the
    /// benchmark report's cold-load row "posting notifications" measures it).
    public var postsNotifications: Bool

    public init(
        cacheDirectory: URL? = WebImageConfiguration.defaultCacheDirectory,
        diskCacheNamespace: String = "images",
        diskCacheSizeLimit: Int = 256 << 20,
        diskCacheMaximumAge: TimeInterval? = 7 * 24 * 60 * 60,
        memoryCache: MemoryCacheConfiguration = .init(),
        transport: TransportConfiguration = .init(),
        downloader: ImageDownloader.Configuration = .init(),
        manager: ImageManager.Configuration = .init(),
        decoders: ImageDecoderRegistry = .allFormats,
        postsNotifications: Bool = false
    ) {
        self.cacheDirectory = cacheDirectory
        self.diskCacheNamespace = diskCacheNamespace
        self.diskCacheSizeLimit = diskCacheSizeLimit
        self.diskCacheMaximumAge = diskCacheMaximumAge
        self.memoryCache = memoryCache
        self.transport = transport
        self.downloader = downloader
        self.manager = manager
        if manager.transcoders.isEmpty { self.manager.transcoders = [JPEGThumbnailTranscoder()] }
        self.decoders = decoders
        self.postsNotifications = postsNotifications
    }

    /// The disk cache this configuration describes (`nil` without a cache directory): the
    /// one a manager made from it uses, so tools that inspect or clear the cache find the
    /// same files.
    public func makeDiskCache() -> DiskCache? {
        cacheDirectory.map { directory in
            var disk = DiskCache.Configuration(directory: directory, namespace: diskCacheNamespace)
            disk.maximumSize = diskCacheSizeLimit
            disk.maximumAge = diskCacheMaximumAge
            return DiskCache(disk)
        }
    }

    /// The partial-download store this configuration describes: `downloader.partialDownloads`,
    /// else one in `partial-downloads` beside the disk cache's namespace folder (`nil`
    /// without a cache directory, or with ``keepsPartialDownloads`` off).
    public func makePartialDownloadStore() -> PartialDownloadStore? {
        if let store = downloader.partialDownloads { return store }
        guard keepsPartialDownloads, let cacheDirectory else { return nil }
        return PartialDownloadStore(directory: cacheDirectory.appendingPathComponent("partial-downloads", isDirectory: true))
    }

    /// `$XDG_CACHE_HOME/swift-web-image`, else `~/.cache/swift-web-image` (on macOS,
    /// `~/Library/Caches/swift-web-image`).
    public static var defaultCacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("swift-web-image", isDirectory: true)
        }
        #if os(macOS)
            let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Caches", isDirectory: true)
        #else
            let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        #endif
        return base.appendingPathComponent("swift-web-image", isDirectory: true)
    }
}
