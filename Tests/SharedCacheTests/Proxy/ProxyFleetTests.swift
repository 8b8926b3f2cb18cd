import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageProxy
@testable import WebImageSharedCache

/// Image proxies sharing Redis nodes: in-process `ImageProxy` instances, each a fleet
/// member of its own (its own cache directory, sources' manager, output memory cache and
/// connections to the nodes), answering requests against a real origin on loopback.
@Suite("Proxy fleet with stored results", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct ProxyFleetTests {
    static let sourceCount = 50
    static let variantOptions = ["rs:fill:64:64", "resize:fit:80:60", "w:48/q:70", "rs:fill:40:30/g:sm", "s:100:100/f:png"]
    static let photos = (0..<sourceCount).map { index in
        try! JPEGFixtureEncoder(quality: 85).encode(SyntheticImage.photo(width: 160, height: 120, seed: UInt64(index)))
    }

    struct Fleet {
        let origin: LoopbackServer
        let nodes: SharedNodes

        /// The unsigned proxy path of variant `variant` of source `source`. The second
        /// spelling of each request (aliases) must meet the first.
        func path(source: Int, variant: Int) -> String {
            let url = origin.url("/files/p\(source).jpg").absoluteString
            return "/unsafe/\(ProxyFleetTests.variantOptions[variant])/plain/"
                + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }

        func originRequests(_ source: Int) -> Int { origin.requests.filter { $0.path == "/files/p\(source).jpg" }.count }

        /// A member over `directory`, with its own connections to the nodes.
        func member(directory: TemporaryDirectory) throws -> ImageProxy {
            var configuration = ImageProxy.Configuration()
            configuration.urlPolicy = .standard
            configuration.cacheDirectory = directory.url
            configuration.sharedCache = try nodes.cache()
            return ImageProxy(configuration: configuration)
        }

        /// Asks `requests` (source, variant) of random members, 16 at a time; the statuses.
        func ask(_ members: [ImageProxy], _ requests: [(source: Int, variant: Int)]) async -> [Int] {
            await withTaskGroup(of: Int.self) { group in
                var statuses: [Int] = []
                var pending = requests.makeIterator()
                func next() -> Bool {
                    guard let request = pending.next() else { return false }
                    let member = members.randomElement()!
                    let path = path(source: request.source, variant: request.variant)
                    group.addTask { await member.respond(to: ProxyRequest(path: path)).status }
                    return true
                }
                for _ in 0..<16 where next() {}
                for await status in group {
                    statuses.append(status)
                    _ = next()
                }
                return statuses
            }
        }
    }

    func withFleet<R>(_ body: (Fleet) async throws -> R) async throws -> R {
        let root = try TemporaryDirectory()
        for (index, photo) in Self.photos.enumerated() { try photo.write(to: root.url.appendingPathComponent("p\(index).jpg")) }
        return try await withNodes(2) { nodes in
            try await LoopbackServer.withServer(.init(documentRoot: root.url)) { origin in
                try await body(Fleet(origin: origin, nodes: nodes))
            }
        }
    }

    /// Every (source, variant) four times, shuffled: 1,000 requests for 250 variants.
    static func shuffledRequests() -> [(source: Int, variant: Int)] {
        var requests: [(source: Int, variant: Int)] = []
        for _ in 0..<4 {
            for source in 0..<sourceCount {
                for variant in variantOptions.indices { requests.append((source, variant)) }
            }
        }
        return requests.shuffled()
    }

    static func shutdown(_ members: [ImageProxy]) async {
        for member in members {
            await member.shutdown()
            (member.configuration.sharedCache as? SharedCache)?.shutdown()
        }
    }

    @Test("four proxies on two nodes: one source fetch per source and one render per variant; restarted, none at all")
    func oneRenderPerVariantFleetWide() async throws {
        try await withFleet { fleet in
            let directories = try (0..<4).map { _ in try TemporaryDirectory() }
            let members = try directories.map { try fleet.member(directory: $0) }
            let statuses = await fleet.ask(members, Self.shuffledRequests())
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            let renders = members.map(\.statistics.renders).reduce(0, +)
            let fetches = members.map(\.statistics.sourceFetches).reduce(0, +)
            #expect(renders == Self.sourceCount * Self.variantOptions.count)
            #expect(fetches == Self.sourceCount)
            for source in 0..<Self.sourceCount { #expect(fleet.originRequests(source) == 1, "p\(source).jpg") }
            await Self.shutdown(members)

            // Restarted: new members over the same directories and nodes.
            let restarted = try directories.map { try fleet.member(directory: $0) }
            let again = await fleet.ask(restarted, Self.shuffledRequests())
            #expect(again.allSatisfy { $0 == 200 })
            #expect(restarted.map(\.statistics.renders).reduce(0, +) == 0)
            #expect(restarted.map(\.statistics.sourceFetches).reduce(0, +) == 0)
            #expect(restarted.map(\.statistics.storedResultHits).reduce(0, +) > 0)
            for source in 0..<Self.sourceCount { #expect(fleet.originRequests(source) == 1, "p\(source).jpg") }
            await Self.shutdown(restarted)
        }
    }

    @Test("a render whose lease another member holds is waited for: its result is served, nothing rendered or fetched here")
    func renderLeaseIsWaitedFor() async throws {
        try await withFleet { fleet in
            let path = fleet.path(source: 4, variant: 4)
            // The bytes the holder will store: made by a proxy outside the fleet.
            var alone = ImageProxy.Configuration()
            alone.urlPolicy = .standard
            let maker = ImageProxy(configuration: alone)
            let made = await maker.respond(to: ProxyRequest(path: path))
            #expect(made.status == 200)
            await maker.shutdown()

            let directory = try TemporaryDirectory()
            let member = try fleet.member(directory: directory)
            let proxyPath = try ProxyPath(path)
            let key = VariantKey(
                source: member.sourceKey(of: proxyPath.source),
                output: try member.outputKey(for: ProxyRequest(path: path), path: proxyPath), configuration: member.configuration)
            let holder = try fleet.nodes.cache()
            guard case .miss(leased: true) = await holder.lookup(forKey: key.cacheKey, coalescing: true) else {
                return #expect(Bool(false), "the holder got no lease")
            }
            let waiting = Task { await member.respond(to: ProxyRequest(path: path)) }
            let memberTier = try #require(member.configuration.sharedCache as? SharedCache)
            await memberTier.waitForLeaseWaits(1)
            let stored = StoredVariant(
                body: made.body, contentType: try #require(made[header: "Content-Type"]), fileExtension: ".png", variesByAccept: false)
            try await holder.store(
                stored.encoded(), metadata: CachedResponseMetadata(contentType: stored.contentType), forKey: key.cacheKey)

            let answer = await waiting.value
            #expect(answer.status == 200)
            #expect(answer.body == made.body)
            #expect(member.statistics.renders == 0)
            #expect(member.statistics.sourceFetches == 0)
            #expect(member.statistics.storedResultHits == 1)
            #expect(fleet.originRequests(4) == 1, "only the maker's fetch")
            await Self.shutdown([member])
            holder.shutdown()
        }
    }

    @Test("a node killed while the fleet answers: no request fails")
    func nodeKilledMidRun() async throws {
        try await withFleet { fleet in
            let directories = try (0..<4).map { _ in try TemporaryDirectory() }
            let members = try directories.map { try fleet.member(directory: $0) }
            let requests = Self.shuffledRequests()
            let first = await fleet.ask(members, Array(requests.prefix(300)))
            fleet.nodes.servers[0].stop()
            let rest = await fleet.ask(members, Array(requests.dropFirst(300)))
            let statuses = first + rest
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            await Self.shutdown(members)
        }
    }

    @Test("with every node down the proxies answer every request, rendering and storing on their disks")
    func everyNodeDown() async throws {
        try await withFleet { fleet in
            let directories = try (0..<2).map { _ in try TemporaryDirectory() }
            let members = try directories.map { try fleet.member(directory: $0) }
            for server in fleet.nodes.servers { server.stop() }
            let requests = (0..<10).map { (source: $0, variant: $0 % ProxyFleetTests.variantOptions.count) }
            let statuses = await fleet.ask(members, requests + requests)
            #expect(statuses == Array(repeating: 200, count: 20))
            #expect(members.map(\.statistics.renders).reduce(0, +) >= 10)
            await Self.shutdown(members)
            // Restarted on the same disks, still without the tier, each asked everything:
            // every variant was stored on the disk of the member that rendered it.
            let restarted = try directories.map { try fleet.member(directory: $0) }
            for member in restarted {
                #expect(await fleet.ask([member], requests) == Array(repeating: 200, count: 10))
            }
            #expect(restarted.map(\.statistics.storedResultHits).reduce(0, +) >= 10)
            await Self.shutdown(restarted)
        }
    }

    @Test("a purge of a source removes its results everywhere: the next request fetches and renders again, once")
    func purgeRendersAgain() async throws {
        try await withFleet { fleet in
            let directories = try (0..<2).map { _ in try TemporaryDirectory() }
            let members = try directories.map { try fleet.member(directory: $0) }
            let requests = Self.variantOptions.indices.flatMap { variant in [(source: 0, variant: variant), (source: 1, variant: variant)] }
            #expect(await fleet.ask(members, requests + requests).allSatisfy { $0 == 200 })
            #expect(members.map(\.statistics.renders).reduce(0, +) == 10)
            // Each member purges its own disk; the tier's part is fleet-wide (the second finds it gone).
            let summaries = await members.asyncMap { await $0.purge(source: fleet.origin.url("/files/p0.jpg")) }
            #expect(summaries[0].resultsInSharedCache == Self.variantOptions.count)
            #expect(summaries[1].resultsInSharedCache == 0)
            #expect(summaries.map(\.resultsOnDisk).reduce(0, +) >= Self.variantOptions.count)

            let before = members.map(\.statistics)
            #expect(await fleet.ask(members, requests + requests).allSatisfy { $0 == 200 })
            let renders = zip(members, before).map { $0.statistics.renders - $1.renders }.reduce(0, +)
            #expect(renders == Self.variantOptions.count, "only source 0's variants render again, once each")
            #expect(fleet.originRequests(0) == 2)
            #expect(fleet.originRequests(1) == 1)
            await Self.shutdown(members)
        }
    }

    @Test("a damaged result on disk is a miss that heals: rendered again, stored whole, then served")
    func damagedResultOnDiskHeals() async throws {
        try await withFleet { fleet in
            let directory = try TemporaryDirectory()
            let member = try fleet.member(directory: directory)
            let path = fleet.path(source: 2, variant: 0)
            let first = await member.respond(to: ProxyRequest(path: path))
            #expect(first.status == 200)
            await Self.shutdown([member])
            // The one stored result on disk gets one byte of its body changed.
            let results = directory.url.appendingPathComponent("proxy-results")
            let files = FileManager.default.enumerator(atPath: results.path)?.compactMap { $0 as? String } ?? []
            var damaged = 0
            for file in files {
                let url = results.appendingPathComponent(file)
                guard var data = FileManager.default.contents(atPath: url.path), data.count > 200 else { continue }
                data[data.count / 2] ^= 0xFF
                try data.write(to: url)
                damaged += 1
            }
            #expect(damaged == 1)
            // The tier's copy is gone too, so the damaged disk copy cannot be answered from it.
            let tier = try fleet.nodes.cache()
            tier.removeAll()
            tier.shutdown()

            let restarted = try fleet.member(directory: directory)
            let second = await restarted.respond(to: ProxyRequest(path: path))
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(restarted.statistics.renders == 1)
            await Self.shutdown([restarted])
            let third = try fleet.member(directory: directory)
            #expect(await third.respond(to: ProxyRequest(path: path)).body == first.body)
            #expect(third.statistics.renders == 0)
            #expect(third.statistics.storedResultHits == 1)
            await Self.shutdown([third])
        }
    }

    @Test("a result in the tier whose body does not match its hash is a miss that heals: rendered again and stored over")
    func damagedResultInTheTierHeals() async throws {
        try await withFleet { fleet in
            let path = fleet.path(source: 3, variant: 1)
            let directories = try (0..<3).map { _ in try TemporaryDirectory() }
            let first = try fleet.member(directory: directories[0])
            let made = await first.respond(to: ProxyRequest(path: path))
            #expect(made.status == 200)
            await Self.shutdown([first])
            // The tier's one result, replaced by a whole tier entry holding a damaged result:
            // the tier's own checksum passes, the result's does not.
            let tier = try fleet.nodes.cache()
            var keys: [String] = []
            for node in tier.configuration.nodes.indices {
                tier.scanKeys(on: node, matching: "webimage:e:variant/*") { names in
                    keys += names.map { String(decoding: $0, as: UTF8.self) }
                }
            }
            #expect(keys.count == 1)
            let key = CacheKey(String(try #require(keys.first).dropFirst("webimage:e:".count)))
            var damaged = try #require(await tier.response(forKey: key)).data
            damaged[damaged.count - 10] ^= 0xFF
            try await tier.store(damaged, metadata: CachedResponseMetadata(contentType: "image/webp"), forKey: key)

            // Members with empty disks: the first renders again, the next finds it healed.
            let second = try fleet.member(directory: directories[1])
            #expect(await second.respond(to: ProxyRequest(path: path)).body == made.body)
            #expect(second.statistics.renders == 1)
            await Self.shutdown([second])
            let third = try fleet.member(directory: directories[2])
            #expect(await third.respond(to: ProxyRequest(path: path)).body == made.body)
            #expect(third.statistics.renders == 0)
            #expect(third.statistics.storedResultHits == 1)
            await Self.shutdown([third])
            tier.shutdown()
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
