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

    /// The disk cache a manager made with this directory uses, so `cache stats` sees what
    /// `fetch` stored.
    func diskCache() -> DiskCache {
        // A configuration with a directory always describes a disk cache.
        WebImageConfiguration(cacheDirectory: directory).makeDiskCache()!
    }

    /// The partial downloads a manager made with this directory keeps beside its cache.
    func partialDownloads() -> PartialDownloadStore? {
        WebImageConfiguration(cacheDirectory: directory).makePartialDownloadStore()
    }
}

extension WebImageConfiguration {
    /// The configuration of a command-line load: the library's defaults, with the cache
    /// directory (nil for none), the downloads at once, and the trust and URL policies the
    /// flags chose.
    /// The partial-download store is made here, so that the program can flush it before
    /// it exits.
    static func commandLine(
        cacheDirectory: URL?, concurrency: Int, trust: TrustOptions, urlPolicy: URLPolicy = .unrestricted
    ) throws -> WebImageConfiguration {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        configuration.transport.urlPolicy = urlPolicy
        configuration.downloader.partialDownloads = configuration.makePartialDownloadStore()
        configuration.downloader.maximumConcurrentDownloads = concurrency
        configuration.transport.trustPolicy = try trust.trustPolicy()
        return configuration
    }
}
