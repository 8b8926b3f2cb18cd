import Foundation
import Synchronization
@_spi(Tooling) import WebImage
import WebImageTestServer

/// The manager's stored variants (`ImageManager.Configuration.variantStorage`, PNG at
/// zlib level 1): 1,000 distinct 1600x1200 JPEGs from the loopback origin (fresh for an
/// hour) made into thumbnails that fit 256 px, 16 at a time, by a manager over an empty
/// cache folder (cold: download, decode, encode the variant), then by a new manager over
/// the same folder (restarted: the variants read and decoded, no request, no decode of a
/// source). Three rounds, a new folder each; the medians' rates, as a ratio.
enum StoredVariantsCase {
    static let name = "Restarted manager: 1,000 stored thumbnails beside making them cold"
    static let count = 1000
    /// The loads run as the fetch-and-thumbnail case runs them, through its `load`.
    static let concurrency = FetchThumbnailCase.concurrency
    static let rounds = 3

    /// A manager over `directory` storing variants, its decodes counted by `decodes`, and
    /// the transport it runs on (shut down after it).
    static func manager(_ directory: URL, decodes: SourceDecodes) -> (ImageManager, DefaultComposition) {
        var configuration = WebImageConfiguration(cacheDirectory: directory)
        // Room for every source (about 300 MB) and every variant: none is evicted.
        configuration.diskCacheSizeLimit = 1 << 30
        configuration.downloader.maximumConcurrentDownloads = concurrency
        configuration.transport.maximumConnectionsPerHost = concurrency
        configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
        let parts = DefaultComposition(configuration: configuration)
        let manager = ImageManager(
            downloader: parts.downloader, decoders: decodes, registry: parts.loadRegistry, memoryCache: parts.memoryCache,
            diskCache: parts.diskCache, configuration: parts.managerConfiguration)
        return (manager, parts)
    }

    static func run(origin: LoopbackServer, root: URL) throws {
        print("\(name):")
        // The fetch-and-thumbnail case's files, which the proxy's cases share: 1,000 of them.
        try FetchThumbnailCase.writeFiles(into: root, count: count)
        let urls = (0..<count).map { origin.url("/cache/\(FetchThumbnailCase.fileName($0))?cc=max-age%3D3600") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-variants-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var coldRates: [Double] = []
        var storedRates: [Double] = []
        for round in 0..<rounds {
            let folder = directory.appendingPathComponent("round-\(round)")
            let coldDecodes = SourceDecodes()
            let (cold, coldParts) = manager(folder, decodes: coldDecodes)
            coldRates.append(Double(count) / (try timed { try FetchThumbnailCase.load(urls, through: cold, caseName: name) }))
            // Untimed: the variants written behind the loads, then the transport stopped.
            try LoopbackBench.blocking {
                await cold.shutdown()
                await coldParts.shutdown()
            }
            origin.resetRecords()
            let storedDecodes = SourceDecodes()
            let (restarted, restartedParts) = manager(folder, decodes: storedDecodes)
            storedRates.append(Double(count) / (try timed { try FetchThumbnailCase.load(urls, through: restarted, caseName: name) }))
            try LoopbackBench.blocking {
                await restarted.shutdown()
                await restartedParts.shutdown()
            }
            let requests = origin.requests.count
            guard coldDecodes.jpeg == count, storedDecodes.jpeg == 0, requests == 0 else {
                throw Baseline.Failure(
                    description:
                        "\(name): cold decoded \(coldDecodes.jpeg) JPEGs; restarted decoded \(storedDecodes.jpeg) and made \(requests) requests"
                )
            }
            print("  round \(round + 1): restarted decoded 0 sources (\(storedDecodes.png) stored variants), made 0 requests")
        }
        let cold = median(coldRates)
        let stored = median(storedRates)
        print("  cold: \(String(format: "%.0f", cold)) thumbnails/s; restarted: \(String(format: "%.0f", stored)) thumbnails/s")
        // At least 3x the cold rate.
        Findings.record(
            .manager, name, ours: Figure(label: "restarted, stored variants", value: stored, unit: "images/s"),
            peer: Figure(label: "cold: download, decode, store", value: cold, unit: "images/s"),
            measured: Figure(label: "stored / cold, rate", value: stored / cold, unit: "x"), goal: .atLeast(3))
        print("")
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func timed(_ work: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The built-in decoders, counting the JPEG (source) and PNG (stored variant) decodes.
final class SourceDecodes: ImageDecoderProviding {
    private let registry = ImageDecoderRegistry.allFormats
    private let counts = Mutex<[String: Int]>([:])

    var jpeg: Int { counts.withLock { $0["jpeg", default: 0] } }
    var png: Int { counts.withLock { $0["png", default: 0] } }

    func decoder(for header: Data) throws(ImageDecodingError) -> any ImageDecoding {
        let decoder = try registry.decoder(for: header)
        counts.withLock { $0[decoder.format.identifier, default: 0] += 1 }
        return decoder
    }
}
