import Foundation
import Testing
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--shared-cache`: separate `webimage` processes, each with its own disk cache, sharing
/// one tier on real redis-server processes, against an origin that counts requests.
@Suite("webimage --shared-cache", .enabled(if: RedisServer.program != nil, "\(RedisServer.missingMessage)"))
struct SharedCacheFlagsTests {
    static let photoCount = 30

    /// 30 small JPEGs served as `/files/p<N>.jpg`.
    func withOrigin<R>(_ body: (LoopbackServer, [String]) async throws -> R) async throws -> R {
        let root = try TemporaryDirectory()
        for index in 0..<Self.photoCount {
            let photo = try JPEGFixtureEncoder(quality: 80).encode(SyntheticImage.photo(width: 64, height: 48, seed: UInt64(index)))
            try photo.write(to: root.url.appendingPathComponent("p\(index).jpg"))
        }
        return try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
            try await body(server, (0..<Self.photoCount).map { server.url("/files/p\($0).jpg").absoluteString })
        }
    }

    @Test("a second process with its own disk cache finds the first one's downloads in the tier (source shared)")
    func twoProcessesShare() async throws {
        let node = try RedisServer()
        let folder = try TemporaryDirectory()
        try await withOrigin { server, urls in
            let shared = ["--shared-cache", node.url]
            let first = try WebImageProgram.run(
                ["fetch", "--json", "--cache-dir", folder.url.appendingPathComponent("a").path] + shared + Array(urls.prefix(3)))
            #expect(first.status == 0, "\(first.errors)")
            #expect(try first.lines.map { try DecodeCommandTests.json($0)["source"] as? String } == ["network", "network", "network"])
            let second = try WebImageProgram.run(
                ["fetch", "--json", "--cache-dir", folder.url.appendingPathComponent("b").path] + shared + Array(urls.prefix(3)))
            #expect(second.status == 0, "\(second.errors)")
            #expect(try second.lines.map { try DecodeCommandTests.json($0)["source"] as? String } == ["shared", "shared", "shared"])
            #expect(server.requests.count == 3, "the second process asked the origin")

            let stats = try WebImageProgram.run(["cache", "stats", "--cache-dir", folder.url.appendingPathComponent("b").path] + shared)
            #expect(stats.status == 0, "\(stats.errors)")
            #expect(stats.lines.contains { $0.hasPrefix("shared \(node.url): 3 entries") }, "\(stats.output)")
        }
    }

    @Test("four processes loading the same 30 URLs at once make one origin request per URL")
    func fleetWideCoalescing() async throws {
        let nodes = try (0..<3).map { _ in try RedisServer() }
        let folder = try TemporaryDirectory()
        try await withOrigin { server, urls in
            let tier = nodes.map(\.url).joined(separator: ",")
            let program = try WebImageProgram.locate().path
            let runs = try await withThrowingTaskGroup(of: ExternalProgram.Finished.self) { group in
                for member in 0..<4 {
                    let arguments =
                        ["fetch", "--json", "--concurrency", "8", "--cache-dir", folder.url.appendingPathComponent("m\(member)").path]
                        + ["--shared-cache", tier] + urls
                    group.addTask { try ExternalProgram.finish(program, arguments) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            var sources: [String: Int] = [:]
            for run in runs {
                #expect(run.status == 0, "\(run.errors)")
                for line in run.output.split(separator: "\n") {
                    sources[try DecodeCommandTests.json(String(line))["source"] as? String ?? "?", default: 0] += 1
                }
            }
            #expect(sources["network"] == Self.photoCount, "\(sources)")
            #expect(sources["shared"] == 3 * Self.photoCount, "\(sources)")
            for path in Set(server.requests.map(\.path)) {
                #expect(server.requests.filter { $0.path == path }.count == 1, "\(path)")
            }
            #expect(server.requests.count == Self.photoCount)
        }
    }

    @Test(
        "two proxy processes on one tier: the second renders nothing and fetches nothing; cache purge removes a source's results")
    func proxiesShareResults() async throws {
        let node = try RedisServer()
        let folder = try TemporaryDirectory()
        try await withOrigin { server, urls in
            let variants = ["rs:fill:32:32", "resize:fit:40:30", "w:24/f:png"]
            func proxyURLs(_ proxy: ServedFolder) -> [String] {
                urls.prefix(2).flatMap { source in
                    variants.map { options in
                        proxy.baseURL.absoluteString + "unsafe/\(options)/plain/"
                            + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                    }
                }
            }
            var summaries: [String] = []
            for member in ["a", "b"] {
                let proxy = try ServedFolder(running: [
                    "proxy", "--port", "0", "--allow-non-public", "--cache-dir", folder.url.appendingPathComponent(member).path,
                    "--shared-cache", node.url,
                ])
                let fetched = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + proxyURLs(proxy))
                #expect(fetched.status == 0, "\(fetched.output)")
                let stopped = proxy.stop(signal: SIGINT)
                #expect(stopped.status == 0)
                summaries.append(stopped.output)
            }
            #expect(summaries[0].contains("stopped: 6 requests, 6 renders, 2 source fetches"), "\(summaries[0])")
            #expect(summaries[1].contains("stopped: 6 requests, 0 renders, 0 source fetches"), "\(summaries[1])")
            #expect(server.requests.count == 2)

            let purged = try WebImageProgram.run([
                "cache", "purge", "--source", urls[0], "--cache-dir", folder.url.appendingPathComponent("a").path,
                "--shared-cache", node.url,
            ])
            #expect(purged.status == 0, "\(purged.errors)")
            #expect(purged.output.contains("3 proxy results and 0 stored variants on disk, 3 in the shared tier"), "\(purged.output)")
        }
    }

    @Test("a --shared-cache that is not a list of redis:// URLs is refused before anything runs")
    func badNodes() throws {
        let run = try WebImageProgram.run(["fetch", "--shared-cache", "rediss://127.0.0.1:1", "http://127.0.0.1:1/a.jpg"])
        #expect(run.status != 0)
        #expect(run.errors.contains("TLS"), "\(run.errors)")
    }
}
