import Foundation
import WebImageTestServer

/// The proxy's stored results, with `webimage proxy` processes against the loopback
/// origin:
///
/// - a proxy restarted over the cache directory another filled answers the same 500
///   thumbnails (1600x1200 JPEGs to fit 300x300, JPEG q80, 32 at a time) from its disk,
///   beside the first making them cold: the ratio of the rates;
/// - `webimage cache purge --source` of a source with 1,000 stored variants, on disk and
///   in a shared tier on one local redis-server: the time the purge itself takes (as the
///   program prints it, without its start-up).
enum StoredResultsCase {
    static let name = "Proxy stored results: 500 thumbnails after a restart beside cold, and a purge of 1,000 variants"
    static let restartName = "Restarted proxy: stored thumbnails beside cold renders"
    static let purgeName = "Purge of a source with 1,000 stored variants (disk and tier)"

    static func run(origin: LoopbackServer, root: URL) throws {
        print("\(name):")
        guard let program = ProxyCase.webimageProgram() else {
            Findings.skip(.proxy, name, reason: "no release webimage (make bench builds it)")
            print("")
            return
        }
        try FetchThumbnailCase.writeFiles(into: root, count: ProxyCase.count)
        let sources = (0..<ProxyCase.count).map { origin.url("/files/\(FetchThumbnailCase.fileName($0))") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-results-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }

        func proxy(_ extra: [String]) throws -> ProxyProcess {
            let port = ProxyProcess.freePort()
            return try ProxyProcess(
                executable: program,
                arguments: ["proxy", "--port", "\(port)", "--allow-non-public", "--queue", "10000"] + extra, port: port,
                waitFor: { ProxyProcess.answers(URL(string: "http://127.0.0.1:\(port)/health")!) })
        }
        func urls(_ server: ProxyProcess) -> [URL] {
            sources.map { ProxyCase.oursURL(port: server.port, options: "rs:fit:300:300/q:80/f:jpeg", source: $0) }
        }
        let cacheArguments = ["--cache-dir", directory.appendingPathComponent("restart").path]
        let first = try proxy(cacheArguments)
        let cold = try ProxyCase.drive(urls(first), servers: [first])
        first.stop()
        let restarted = try proxy(cacheArguments)
        let stored = try ProxyCase.drive(urls(restarted), servers: [restarted])
        restarted.stop()
        print(
            "  cold: \(ProxyCase.format(cold.rate, 0, 1)) images/s, CPU \(ProxyCase.format(cold.cpuSeconds * 1000 / Double(ProxyCase.count), 0, 2)) ms each; "
                + "restarted: \(ProxyCase.format(stored.rate, 0, 1)) images/s, CPU \(ProxyCase.format(stored.cpuSeconds * 1000 / Double(ProxyCase.count), 0, 2)) ms each"
        )
        // At least 3x the cold rate.
        Findings.record(
            .proxy, restartName, ours: Figure(label: "restarted, stored results", value: stored.rate, unit: "images/s"),
            peer: Figure(label: "cold renders", value: cold.rate, unit: "images/s"),
            measured: Figure(label: "stored / cold, rate", value: stored.rate / cold.rate, unit: "x"), goal: .atLeast(3))

        guard let redisServer = HostileStructureCases.locate("redis-server")?.path else {
            Findings.skip(.proxy, purgeName, reason: "no redis-server (make bench-deps installs it)")
            print("")
            return
        }
        let node = try SharedCacheCase.startNode(redisServer)
        defer { node.stop() }
        let purgeArguments = [
            "--cache-dir", directory.appendingPathComponent("purge").path, "--shared-cache", "redis://127.0.0.1:\(node.port)",
        ]
        let filler = try proxy(purgeArguments)
        // 1,000 variants of one source, each still a 300x225 JPEG: 100 qualities, 10 sharpenings
        // (0.1 to 1.0: `sh:0.10` would be `sh:0.1` again, one variant).
        let variants = (1...100).flatMap { quality in
            (1...10).map { sharpen in
                ProxyCase.oursURL(
                    port: filler.port, options: "rs:fit:300:300/q:\(quality)/sh:\(Double(sharpen) / 10)/f:jpeg", source: sources[0])
            }
        }
        _ = try ProxyCase.drive(variants, servers: [filler])
        filler.stop()
        let output = try SharedCacheCase.finish(
            program.path, ["cache", "purge", "--source", sources[0].absoluteString] + purgeArguments)
        print("  \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
        guard output.contains("1000 proxy results and 0 stored variants on disk, 1000 in the shared tier"),
            let seconds = output.split(separator: " ").dropLast().last.flatMap({ Double($0) })
        else {
            Findings.skip(.proxy, purgeName, reason: "the purge did not report 1,000 variants: \(output)")
            print("")
            return
        }
        // Well under a second.
        let figure = Figure(label: "webimage cache purge", value: seconds * 1000, unit: "ms")
        Findings.record(.proxy, purgeName, ours: figure, peer: nil, measured: figure, goal: .below(1000))
        print("")
    }
}
