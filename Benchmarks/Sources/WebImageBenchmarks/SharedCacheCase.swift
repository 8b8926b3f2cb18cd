import Foundation
import WebImage
import WebImageSharedCache
import WebImageTestServer

#if canImport(Glibc)
    import Glibc
#endif

/// The shared cache tier, on three local redis-server processes started here:
///
/// - Shared hits of 50 KB values through `SharedCache.lookup` (48 at a time, spread over
///   the three nodes by their keys) beside `redis-benchmark`'s GET of 50 KB values, one
///   redis-benchmark per node with 16 connections each (the same 48 in all), run at once:
///   the ceiling a client of these servers reaches on this machine. Five rounds, ours and
///   redis-benchmark's taking turns: with three servers and a client on two cores, one
///   run of either moves by a fifth from one run to the next, so the ratio is the median
///   of each round's.
/// - The origin requests made by 4 `webimage fetch` processes loading the same 1,000 URLs
///   at once, each with its own disk cache, with `--shared-cache` over the three nodes and
///   without it.
enum SharedCacheCase {
    static let name = "Shared cache: 50 KB hits on 3 redis-server nodes beside redis-benchmark, and 4 processes loading 1,000 URLs"
    static let hitsName = "50 KB hits on 3 redis-server nodes"
    static let fleetName = "4 webimage processes loading the same 1,000 URLs at once"
    static let valueSize = 50 * 1024
    static let keyCount = 300
    static let concurrency = 48
    static let lookups = 30_000

    static func run(origin: LoopbackServer) throws {
        print("\(name):")
        guard let redisServer = HostileStructureCases.locate("redis-server")?.path,
            let redisBenchmark = HostileStructureCases.locate("redis-benchmark")?.path
        else {
            Findings.skip(
                .sharedCache, name, reason: "no redis-server or redis-benchmark (make bench-deps installs redis-server and redis-tools)")
            print("")
            return
        }
        let nodes = try (0..<3).map { _ in try startNode(redisServer) }
        defer { for node in nodes { node.stop() } }
        let tier = nodes.map { "redis://127.0.0.1:\($0.port)" }.joined(separator: ",")

        var ours: [Rate] = []
        var theirs: [Rate] = []
        var ratios: [Double] = []
        try withHitRounds(tier: tier) { measure in
            try fill(redisBenchmark, ports: nodes.map(\.port))
            for _ in 0..<rounds {
                let hits = try measure()
                ours.append(hits)
                guard let ceiling = try redisBenchmarkGets(redisBenchmark, ports: nodes.map(\.port)) else { continue }
                theirs.append(ceiling)
                ratios.append(hits.rate / ceiling.rate)
            }
        }
        let hits = median(ours)
        print("  client (median of \(rounds) rounds, taking turns)     ops/s     p50 ms    p99 ms")
        print(
            "  SharedCache.lookup, 48 at a time               \(ProxyCase.format(hits.rate, 10, 0)) "
                + "\(ProxyCase.format(hits.p50 * 1000, 10, 3)) \(ProxyCase.format(hits.p99 * 1000, 9, 3))")
        if !theirs.isEmpty {
            let ceiling = median(theirs)
            print(
                "  redis-benchmark GET, 3 x 16 conns              \(ProxyCase.format(ceiling.rate, 10, 0)) "
                    + "\(ProxyCase.format(ceiling.p50, 10, 3)) \(ProxyCase.format(ceiling.p99, 9, 3))")
            let each = ratios.map { ProxyCase.format($0, 0, 2) }.joined(separator: ", ")
            print("  shared hits / redis-benchmark's GET rate, each round: \(each)")
            // The median of the rounds' ratios: at least 0.7.
            Findings.record(
                .sharedCache, hitsName, ours: Figure(label: "SharedCache.lookup, 48 at a time", value: hits.rate, unit: "ops/s"),
                peer: Figure(label: "redis-benchmark GET, 3 x 16 connections", value: ceiling.rate, unit: "ops/s"),
                measured: Figure(label: "ours / peer, rate, median of the rounds'", value: CaseResult.median(ratios), unit: "x"),
                goal: .atLeast(0.7))
        } else {
            Findings.skip(.sharedCache, hitsName, reason: "redis-benchmark's output could not be read")
        }

        guard let program = ProxyCase.webimageProgram() else {
            Findings.skip(.sharedCache, fleetName, reason: "no release webimage (make bench builds it)")
            print("")
            return
        }
        for node in nodes { flush(node.port) }
        let urls = (0..<1000).map { origin.url("/files/\(ColdLoadCases.fileName($0))").absoluteString }
        let shared = try fleetLoad(program: program, urls: urls, origin: origin, sharedCache: tier)
        let alone = try fleetLoad(program: program, urls: urls, origin: origin, sharedCache: nil)
        print(
            "  with --shared-cache: sources \(shared.sources), \(ProxyCase.format(shared.seconds, 0, 2)) s; "
                + "disk caches alone: \(ProxyCase.format(alone.seconds, 0, 2)) s")
        // One origin request per URL across the fleet.
        let requests = Figure(label: "origin requests with --shared-cache", value: Double(shared.originRequests), unit: "requests")
        Findings.record(
            .sharedCache, fleetName, ours: requests,
            peer: Figure(label: "disk caches alone", value: Double(alone.originRequests), unit: "requests"), measured: requests,
            goal: .atMost(Double(urls.count)))
        print("")
    }

    // MARK: Hits

    struct Rate {
        let rate: Double
        let p50: Double
        let p99: Double
    }

    static let rounds = 5

    /// The middle rate, and the latencies of the same round.
    private static func median(_ rates: [Rate]) -> Rate {
        rates.sorted { $0.rate < $1.rate }[rates.count / 2]
    }

    /// Stores the 300 entries through a cache over `tier`, then calls `body` with a
    /// measurement of `lookups` hits (each call one round).
    private static func withHitRounds(tier: String, _ body: (() throws -> Rate) throws -> Void) throws {
        var configuration = SharedCache.Configuration(nodes: try RedisNodeAddress.list(tier))
        configuration.commandTimeout = .seconds(2)
        let cache = try SharedCache(configuration: configuration)
        defer { cache.shutdown() }
        let value = Data((0..<valueSize).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let metadata = CachedResponseMetadata(contentType: "image/jpeg", etag: "\"bench\"", maxAge: 3600)
        let keys = (0..<keyCount).map { CacheKey("https://images.example.com/bench/\($0).jpg") }
        try LoopbackBench.blocking {
            for key in keys { try await cache.store(value, metadata: metadata, forKey: key) }
            // Warm the connections.
            for key in keys.prefix(48) { _ = await cache.lookup(forKey: key, coalescing: false) }
        }
        try body { try measureHits(cache, keys) }
    }

    private static func measureHits(_ cache: SharedCache, _ keys: [CacheKey]) throws -> Rate {
        try LoopbackBench.blocking {
            let started = ContinuousClock.now
            let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        var latencies: [Double] = []
                        latencies.reserveCapacity(lookups / concurrency)
                        for index in 0..<(lookups / concurrency) {
                            let key = keys[(worker * 7919 + index * 31) % keys.count]
                            let began = ContinuousClock.now
                            guard case .hit(let entry) = await cache.lookup(forKey: key, coalescing: false), entry.data.count == valueSize
                            else { throw Baseline.Failure(description: "a shared lookup of \(key) missed") }
                            latencies.append(seconds(ContinuousClock.now - began))
                        }
                        return latencies
                    }
                }
                return try await group.reduce(into: [Double]()) { $0 += $1 }.sorted()
            }
            let elapsed = seconds(ContinuousClock.now - started)
            return Rate(
                rate: Double(latencies.count) / elapsed, p50: latencies[latencies.count / 2],
                p99: latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
        }
    }

    /// redis-benchmark's SET fills its 300 keys of 50 KB on every node.
    private static func fill(_ program: String, ports: [Int]) throws {
        for port in ports {
            _ = try finish(
                program, ["-h", "127.0.0.1", "-p", "\(port)", "-t", "set", "-d", "\(valueSize)", "-r", "\(keyCount)", "-n", "6000", "-q"])
        }
    }

    /// One redis-benchmark per node at once (16 connections each), GET of the keys `fill`
    /// wrote. Rates summed, latencies of the slowest.
    private static func redisBenchmarkGets(_ program: String, ports: [Int]) throws -> Rate? {
        let perNode = lookups / ports.count
        let processes = try ports.map { port -> (Process, Pipe) in
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = [
                "-h", "127.0.0.1", "-p", "\(port)", "-t", "get", "-d", "\(valueSize)", "-r", "\(keyCount)", "-n", "\(perNode)",
                "-c", "\(concurrency / ports.count)", "--csv",
            ]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        var rows: [Rate] = []
        for (process, output) in processes {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard let row = parseCSV(text) else { return nil }
            rows.append(row)
        }
        return Rate(rate: rows.reduce(0) { $0 + $1.rate }, p50: rows.map(\.p50).max() ?? 0, p99: rows.map(\.p99).max() ?? 0)
    }

    /// redis-benchmark's `--csv`: a header naming the columns, then `"GET","rps",...`.
    static func parseCSV(_ text: String) -> Rate? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: ["\""]) } }
        guard let header = lines.first(where: { $0.first == "test" }), let row = lines.first(where: { $0.first == "GET" }),
            let rps = header.firstIndex(of: "rps").flatMap({ Double(row[$0]) }),
            let p50 = header.firstIndex(of: "p50_latency_ms").flatMap({ Double(row[$0]) }),
            let p99 = header.firstIndex(of: "p99_latency_ms").flatMap({ Double(row[$0]) })
        else { return nil }
        return Rate(rate: rps, p50: p50, p99: p99)
    }

    // MARK: The fleet

    struct FleetRun {
        let originRequests: Int
        let sources: [String: Int]
        let seconds: Double
    }

    private static func fleetLoad(program: URL, urls: [String], origin: LoopbackServer, sharedCache: String?) throws -> FleetRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-fleet-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        origin.resetRecords()
        let started = ContinuousClock.now
        let processes = try (0..<4).map { member -> (Process, Pipe) in
            let process = Process()
            let output = Pipe()
            process.executableURL = program
            process.arguments =
                ["fetch", "--json", "--concurrency", "16", "--cache-dir", folder.appendingPathComponent("m\(member)").path]
                + (sharedCache.map { ["--shared-cache", $0] } ?? []) + urls
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        var sources: [String: Int] = [:]
        for (process, output) in processes {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw Baseline.Failure(description: "a webimage fetch of the fleet run failed") }
            for line in text.split(whereSeparator: \.isNewline) {
                let source = line.range(of: "\"source\":\"").map { line[$0.upperBound...].prefix { $0 != "\"" } } ?? "?"
                sources[String(source), default: 0] += 1
            }
        }
        let elapsed = seconds(ContinuousClock.now - started)
        let requests = origin.requests.filter { $0.path.hasPrefix("/files/") }.count
        return FleetRun(originRequests: requests, sources: sources, seconds: elapsed)
    }

    // MARK: Processes

    static func startNode(_ program: String) throws -> ProxyProcess {
        let port = ProxyProcess.freePort()
        return try ProxyProcess(
            executable: URL(fileURLWithPath: program),
            arguments: ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--logfile", "/dev/null"],
            port: port, waitFor: { canConnect(port) })
    }

    private static func flush(_ port: Int) {
        if let cli = HostileStructureCases.locate("redis-cli")?.path { _ = try? finish(cli, ["-p", "\(port)", "FLUSHALL"]) }
    }

    private static func canConnect(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @discardableResult
    static func finish(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
