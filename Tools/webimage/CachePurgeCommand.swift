import ArgumentParser
import Foundation
import WebImage
import WebImageProxy
import WebImageSharedCache

/// `webimage cache purge --source URL`: removes a source and everything made from it (the
/// proxy's results, the manager's stored variants), from the disk cache folder and the
/// shared tier.
struct CachePurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove a source and every processed result made from it (proxy results, stored variants).",
        discussion: """
            Removes the source's bytes from the disk cache (what `fetch` and `proxy` keep \
            there) and, with --shared-cache, from the shared tier; and everything made \
            from it: every result `webimage proxy` stored, and every variant a manager \
            with variant storage stored in this cache folder (the same purge as \
            ImageManager.purge(source:)), found through the indexes of variants per \
            source kept on disk and in the tier (a Redis set per source). The next request \
            for any of them fetches the source and renders again. A proxy or a manager \
            that is running keeps what its memory cache holds until it is pushed out.
            """
    )

    @Option(help: ArgumentHelp("The source URL, as the proxy's URLs name it.", valueName: "url"))
    var source: String

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @OptionGroup var sharedCache: SharedCacheOption

    func validate() throws {
        guard let url = URL(string: source), url.scheme != nil else { throw ValidationError("--source is not a URL: \(source)") }
    }

    func run() async throws {
        let url = URL(string: source)!
        let shared = try sharedCache.sharedCache()
        defer { shared?.shutdown() }
        var configuration = ImageProxy.Configuration()
        configuration.cacheDirectory = cacheDirectory.directory
        configuration.sharedCache = shared
        let proxy = ImageProxy(configuration: configuration)
        let started = ContinuousClock.now
        let summary = await proxy.purge(source: url)
        // The manager's folder: the source's bytes and its stored variants, by its index.
        let variants = await cacheDirectory.diskCache().purgeSource(CacheKey(url.absoluteString)) ?? 0
        let elapsed = ContinuousClock.now - started
        await proxy.shutdown()
        let sharedText =
            shared == nil ? "" : ", \(summary.resultsInSharedCache.map(String.init) ?? "unknown (node unreachable)") in the shared tier"
        Console.line(
            "purged \(url.absoluteString): \(summary.resultsOnDisk) proxy results and \(variants) stored variants on disk\(sharedText), in \(elapsed)"
        )
        if shared != nil, summary.resultsInSharedCache == nil { throw ExitCode.failure }
    }
}
