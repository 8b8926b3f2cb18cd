import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageProxy

/// A proxy with a cache directory (no shared tier): results stored on its disk, answered
/// by a restarted proxy without a source fetch or a render.
@Suite("Proxy: stored results on disk")
struct StoredResultsTests {
    static func proxy(directory: TemporaryDirectory?) -> ImageProxy {
        var configuration = ImageProxy.Configuration()
        configuration.urlPolicy = .standard
        configuration.cacheDirectory = directory?.url
        return ImageProxy(configuration: configuration)
    }

    func withOrigin(_ body: (LoopbackServer) async throws -> Void) async throws {
        let root = try TemporaryDirectory()
        try ProxyImages.photoJPEG(width: 320, height: 240).write(to: root.url.appendingPathComponent("photo.jpg"))
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { origin in try await body(origin) }
    }

    static func path(_ options: String, _ origin: LoopbackServer) -> String {
        "/unsafe/\(options)/plain/" + origin.url("/files/photo.jpg").absoluteString.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
    }

    @Test("a restarted proxy answers from its disk: the same bytes and ETag, no source fetch, no render; an alias spelling meets it")
    func restart() async throws {
        try await withOrigin { origin in
            let directory = try TemporaryDirectory()
            let first = Self.proxy(directory: directory)
            let made = await first.respond(to: ProxyRequest(path: Self.path("rs:fill:100:80", origin), accept: "image/webp"))
            #expect(made.status == 200)
            #expect(made[header: "Content-Type"] == "image/webp")
            #expect(first.statistics.renders == 1 && first.statistics.sourceFetches == 1)
            await first.shutdown()

            let restarted = Self.proxy(directory: directory)
            let served = await restarted.respond(to: ProxyRequest(path: Self.path("resize:fill:100:80/cb:2", origin), accept: "image/webp"))
            #expect(served.status == 200)
            #expect(served.body == made.body)
            #expect(served[header: "ETag"] == made[header: "ETag"])
            #expect(served[header: "Content-Type"] == "image/webp")
            #expect(served[header: "Vary"] == "Accept")
            #expect(restarted.statistics.renders == 0 && restarted.statistics.sourceFetches == 0)
            #expect(restarted.statistics.storedResultHits == 1)
            #expect(origin.requests.count == 1)
            // The file name is the request's own, not the one stored with the first.
            let named = await restarted.respond(
                to: ProxyRequest(path: Self.path("rs:fill:100:80/fn:kitten/att:1", origin), accept: "image/webp"))
            #expect(named[header: "Content-Disposition"] == "attachment; filename=\"kitten.webp\"")
            #expect(restarted.statistics.renders == 0)
            await restarted.shutdown()
        }
    }

    @Test("the ETag is the same in every proxy for the same request, and a matching If-None-Match gets 304")
    func entityTagFromKey() async throws {
        try await withOrigin { origin in
            let (a, b) = (Self.proxy(directory: nil), Self.proxy(directory: nil))
            let path = Self.path("rs:fit:64:64/f:png", origin)
            let fromA = await a.respond(to: ProxyRequest(path: path))
            let fromB = await b.respond(to: ProxyRequest(path: path))
            let tag = try #require(fromA[header: "ETag"])
            #expect(fromB[header: "ETag"] == tag)
            let other = await a.respond(to: ProxyRequest(path: Self.path("rs:fit:65:64/f:png", origin)))
            #expect(other[header: "ETag"] != tag)
            #expect(await b.respond(to: ProxyRequest(path: path, ifNoneMatch: tag)).status == 304)
            await a.shutdown()
            await b.shutdown()
        }
    }

    @Test("outputs of one source asked at once count each origin request once as a source fetch, however many renders share it")
    func oneSourceLoad() async throws {
        try await withOrigin { origin in
            let proxy = Self.proxy(directory: nil)
            let statuses = await withTaskGroup(of: Int.self) { group in
                for width in 40..<48 {
                    group.addTask { await proxy.respond(to: ProxyRequest(path: Self.path("w:\(width)", origin))).status }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
            #expect(proxy.statistics.renders == 8)
            // Renders waiting for a queue slot may start after the first load ended (no
            // disk cache here to keep its bytes), so the origin may be asked more than once;
            // each time counts once.
            #expect(proxy.statistics.sourceFetches == origin.requests.count)
            #expect(origin.requests.count < 8)
            await proxy.shutdown()
        }
    }

    @Test("a purge removes the source and its results from the disk: the next request fetches and renders again")
    func purge() async throws {
        try await withOrigin { origin in
            let directory = try TemporaryDirectory()
            let proxy = Self.proxy(directory: directory)
            for options in ["w:50", "w:60", "w:70"] {
                #expect(await proxy.respond(to: ProxyRequest(path: Self.path(options, origin))).status == 200)
            }
            let summary = await proxy.purge(source: origin.url("/files/photo.jpg"))
            #expect(summary == PurgeSummary(resultsOnDisk: 3, resultsInSharedCache: nil))
            await proxy.shutdown()

            let restarted = Self.proxy(directory: directory)
            #expect(await restarted.respond(to: ProxyRequest(path: Self.path("w:60", origin))).status == 200)
            #expect(restarted.statistics.renders == 1 && restarted.statistics.sourceFetches == 1)
            #expect(origin.requests.count == 2)
            await restarted.shutdown()
        }
    }
}
