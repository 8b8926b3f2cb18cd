import Foundation
@_spi(Tooling) import WebImage
import WebImageSharedCache
import WebImageTestServer

/// `ImageManager.purge(source:)` of a source with 1,000 stored variants (PNG, zlib level
/// 1), on disk and in a shared tier on one local redis-server: one 256x256 JPEG from the
/// loopback origin (fresh for an hour) made into thumbnails of 1 to 1,000 px, untimed;
/// then a restarted manager over the same folder and tier purges the source, timed.
/// Checked: the purge lists 1,000 variants on each, and the next load requests the source
/// once and decodes it once. Three rounds, a new folder and an emptied node each; the
/// median.
enum ManagerPurgeCase {
    static let name = "Manager purge: a source with 1,000 stored variants (disk and tier)"
    static let count = 1000
    static let rounds = 3

    static func manager(_ directory: URL, tier: SharedCache, decodes: SourceDecodes) -> (ImageManager, DefaultComposition) {
        var configuration = WebImageConfiguration(cacheDirectory: directory)
        configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
        configuration.manager.sharedCache = tier
        let parts = DefaultComposition(configuration: configuration)
        let manager = ImageManager(
            downloader: parts.downloader, decoders: decodes, registry: parts.loadRegistry, memoryCache: parts.memoryCache,
            diskCache: parts.diskCache, configuration: parts.managerConfiguration)
        return (manager, parts)
    }

    static func run(origin: LoopbackServer) throws {
        print("\(name):")
        guard let redisServer = HostileStructureCases.locate("redis-server")?.path else {
            Findings.skip(.manager, name, reason: "no redis-server (make bench-deps installs it)")
            print("")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-purge-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = origin.url("/cache/\(ColdLoadCases.fileName(0))?cc=max-age%3D3600")
        var times: [Double] = []
        for round in 0..<rounds {
            let node = try SharedCacheCase.startNode(redisServer)
            defer { node.stop() }
            let tier = try SharedCache(
                configuration: SharedCache.Configuration(nodes: [try RedisNodeAddress("redis://127.0.0.1:\(node.port)")]))
            defer { tier.shutdown() }
            let folder = directory.appendingPathComponent("round-\(round)")
            let (filler, fillerParts) = manager(folder, tier: tier, decodes: SourceDecodes())
            try LoopbackBench.blocking {
                for size in 1...count {
                    let request = ImageRequest(
                        url: source, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: size))
                    _ = try await filler.image(for: request)
                }
                await filler.shutdown()
                await fillerParts.shutdown()
            }
            origin.resetRecords()
            let decodes = SourceDecodes()
            let (restarted, restartedParts) = manager(folder, tier: tier, decodes: decodes)
            let (summary, seconds, reloaded) = try LoopbackBench.blocking {
                let started = ContinuousClock.now
                let summary = await restarted.purge(source: source)
                let elapsed = ContinuousClock.now - started
                let reloaded = try await restarted.response(
                    for: ImageRequest(url: source, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: 100)))
                await restarted.shutdown()
                await restartedParts.shutdown()
                return (
                    summary, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, reloaded.isStoredVariant
                )
            }
            let requests = origin.requests.count
            guard summary == SourcePurgeSummary(variantsOnDisk: count, variantsInSharedCache: count), !reloaded,
                decodes.jpeg == 1, requests == 1
            else {
                throw Baseline.Failure(
                    description:
                        "\(name): the purge listed \(summary); the next load decoded \(decodes.jpeg) sources with \(requests) requests"
                )
            }
            times.append(seconds)
            print(
                "  round \(round + 1): purged \(count) variants on disk and \(count) in the tier in "
                    + "\(String(format: "%.2f", seconds * 1000)) ms; the next load: 1 request, 1 decode")
        }
        let median = times.sorted()[times.count / 2]
        // Well under a second.
        let figure = Figure(label: "ImageManager.purge(source:)", value: median * 1000, unit: "ms")
        Findings.record(.manager, name, ours: figure, peer: nil, measured: figure, goal: .below(1000))
        print("")
    }
}
