import ArgumentParser
import Foundation
import WebImage

/// `--cache-dir DIR`, shared by every command that touches the disk cache, so that
/// `fetch`, `prefetch` and `cache` agree on where the entries are.
struct CacheDirectoryOption: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The disk cache's root directory (default: $XDG_CACHE_HOME/swift-web-image, else ~/.cache/swift-web-image).",
            valueName: "dir"))
    var path: String?

    /// The directory given, or the library's default.
    var directory: URL {
        path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? WebImageConfiguration.defaultCacheDirectory
    }

    /// The disk cache a manager made with this directory uses: the same namespace and
    /// limits as ``WebImageConfiguration``'s defaults, so `cache stats` sees what `fetch`
    /// stored.
    func diskCache() -> DiskCache {
        let defaults = WebImageConfiguration(cacheDirectory: directory)
        var configuration = DiskCache.Configuration(directory: directory, namespace: defaults.diskCacheNamespace)
        configuration.maximumSize = defaults.diskCacheSizeLimit
        configuration.maximumAge = defaults.diskCacheMaximumAge
        return DiskCache(configuration)
    }
}

extension WebImageConfiguration {
    /// The configuration of a command-line load: the library's defaults, with the cache
    /// directory (nil for none), the downloads at once and the trust policy the flags chose.
    static func commandLine(cacheDirectory: URL?, concurrency: Int, trust: TrustOptions) throws -> WebImageConfiguration {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        configuration.downloader.maximumConcurrentDownloads = concurrency
        configuration.transport.trustPolicy = try trust.trustPolicy()
        return configuration
    }
}
