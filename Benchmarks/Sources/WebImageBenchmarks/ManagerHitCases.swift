import Foundation
import Synchronization
import WebImage
import WebImageTestServer

/// The manager's warm paths: a memory hit through the public async API
/// (`image(for: request)`, which answers a hit on the caller's executor, with no task and
/// no hop) and the synchronous query (`cachedImage(for:)`), each beside a bare
/// `Dictionary` under a `Mutex` holding the same images under the same keys. The images
/// are the cold case's 1000, loaded once; every run cycles through them in a fixed
/// pseudo-random order, so "img/s" reads as hits per second.
enum ManagerHitCases {
    static let asyncName = "manager: memory hit, async API"
    static let syncName = "manager: synchronous cache query"
    static let names = [asyncName, syncName]
    static let operations = 200_000

    /// The baseline: the least a thread-safe map of decoded images can do.
    final class LockedImages: Sendable {
        let storage = Mutex<[CacheKey: DecodedImage]>([:])
        func image(forKey key: CacheKey) -> DecodedImage? { storage.withLock { $0[key] } }
    }

    static func all(server: LoopbackServer, count: Int) throws -> [BenchmarkCase] {
        let requests = (0..<count).map { ImageRequest(url: server.url("/files/\(ColdLoadCases.fileName($0))")) }
        // No disk cache: a hit never reaches it, and nothing is left to clean up.
        var configuration = WebImageConfiguration()
        configuration.cacheDirectory = nil
        let manager = ImageManager(configuration: configuration)
        let images = try LoopbackBench.blocking {
            var images: [DecodedImage] = []
            for request in requests { images.append(try await manager.image(for: request)) }
            return images
        }
        guard requests.allSatisfy({ manager.cachedImage(for: $0) != nil }) else {
            throw Baseline.Failure(description: "manager: not every image stayed in the memory cache")
        }
        let dictionary = LockedImages()
        dictionary.storage.withLock { table in
            for (request, image) in zip(requests, images) { table[request.imageKey] = image }
        }
        // The cache the manager holds, reached as it reaches it (an existential), and a
        // `MemoryCache` of the same images called directly (specialised here, as the
        // memory cache cases measure it): where the manager's time goes.
        guard let held = manager.memoryCache else { throw Baseline.Failure(description: "manager: no memory cache") }
        let direct = MemoryCache<CacheKey, DecodedImage>(configuration: configuration.memoryCache)
        for (request, image) in zip(requests, images) { direct.setValue(image, forKey: request.imageKey, cost: image.byteCount) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let order = (0..<operations).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(count))
        }
        // Every hit adds its image's width, and the sum is checked: a miss or a wrong
        // image stops the run.
        let expected = operations * 256
        func check(_ sum: Int, _ who: String) throws {
            guard sum == expected else { throw Baseline.Failure(description: "\(who): widths add to \(sum), not \(expected)") }
        }
        let bareLookup = Contender(name: "Dictionary+Mutex") {
            var sum = 0
            for index in order { sum &+= dictionary.image(forKey: requests[index].imageKey)?.size.width ?? 0 }
            try check(sum, "Dictionary+Mutex")
        }
        return [
            BenchmarkCase(
                section: .manager,
                name: asyncName,
                contenders: [
                    // Inside one task: what a caller already in async code pays per hit.
                    Contender(name: "image(for: request)") {
                        let sum = try LoopbackBench.blocking {
                            var sum = 0
                            for index in order { sum &+= try await manager.image(for: requests[index]).size.width }
                            return sum
                        }
                        try check(sum, "image(for:)")
                    },
                    // The same loop inside a task too, so both pay the one task start.
                    Contender(name: "Dictionary+Mutex in a task") {
                        let sum = try LoopbackBench.blocking {
                            var sum = 0
                            for index in order { sum &+= dictionary.image(forKey: requests[index].imageKey)?.size.width ?? 0 }
                            return sum
                        }
                        try check(sum, "Dictionary+Mutex")
                    },
                ], imagesPerRun: operations, comparisons: []),
            BenchmarkCase(
                section: .manager,
                name: syncName,
                contenders: [
                    Contender(name: "cachedImage(for:)") {
                        var sum = 0
                        for index in order { sum &+= manager.cachedImage(for: requests[index])?.size.width ?? 0 }
                        try check(sum, "cachedImage(for:)")
                    },
                    bareLookup,
                    Contender(name: "manager.memoryCache (any MemoryCaching)") {
                        var sum = 0
                        for index in order { sum &+= held.value(forKey: requests[index].imageKey)?.size.width ?? 0 }
                        try check(sum, "any MemoryCaching")
                    },
                    Contender(name: "MemoryCache<CacheKey, DecodedImage> direct") {
                        var sum = 0
                        for index in order { sum &+= direct.value(forKey: requests[index].imageKey)?.size.width ?? 0 }
                        try check(sum, "MemoryCache")
                    },
                ], imagesPerRun: operations, comparisons: []),
        ]
    }

    /// Nanoseconds per hit of every contender, and the goals.
    static func printSummary(_ results: [CaseResult]) {
        let cases = results.filter { names.contains($0.name) }
        guard !cases.isEmpty else { return }
        print("Manager hits, nanoseconds per hit (median run / \(operations) hits):")
        for result in cases {
            print("  \(Report.pad(result.name, 34)) \(Report.nanosecondsPerOperation(result))")
        }
        // The goals are of ours per hit; the bare lookup beside it says how much of its
        // cost the hit adds, which holds better than nanoseconds across machines.
        for (name, goal) in [(asyncName, Goal.atMost(250)), (syncName, Goal.below(200))] {
            guard let result = cases.first(where: { $0.name == name }), result.medians.count > 1 else { continue }
            let each = result.medians.map { $0 / Double(result.imagesPerRun) }
            Findings.record(
                .manager, name, ours: .seconds(result.contenders[0], each[0]), peer: .seconds(result.contenders[1], each[1]),
                measured: Figure(label: "ours per hit", value: each[0] * 1e9, unit: "ns"), goal: goal)
        }
        print("")
    }
}
