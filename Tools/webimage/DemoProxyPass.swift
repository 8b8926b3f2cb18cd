import Foundation
import WebImage
import WebImageProxy

/// The last part of `webimage demo`: the image proxy in front of the same loopback
/// server. A few thumbnails of the samples are made through it cold, asked again (the
/// output cache answers), and one is asked by many clients at once (one render serves
/// them all); each is written to DIR/proxy, and the proxy's and the origin's request
/// counts are printed.
struct DemoProxyPass {
    /// The options each sample is asked with: the sizes and gravities a gallery uses.
    static let plan: [(sample: String, options: String)] = [
        ("photo-baseline.jpg", "rs:fill:160:160/g:sm"),
        ("photo-rotated.jpg", "rs:fit:160:160"),
        ("photo-progressive.jpg", "rs:fill:240:120/g:no/q:70"),
        ("photo-interlaced.png", "rs:fit:160:160/f:webp"),
        ("animation.gif", "rs:fit:96:96/f:webp"),
    ]
    static let simultaneousClients = 32

    struct Row {
        let name: String
        let options: String
        let status: Int
        let contentType: String
        let bytes: Int
        let milliseconds: Double
    }

    let rows: [Row]
    let repeatedHits: Int
    let statistics: ProxyStatistics
    let failures: Int

    /// Runs the pass against `origin` (the demo's server base, `http://127.0.0.1:P/files/`),
    /// fetching sources with `sources`, and writes the outputs into `folder`.
    static func run(origin: URL, sources: ImageManager, writingInto folder: URL) async throws -> DemoProxyPass {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ImageProxy.Configuration()
        configuration.urlPolicy = .standard  // the origin is on loopback
        // The animation's thumbnail keeps its frames (imgproxy's default, 1, makes a still).
        configuration.limits.maxAnimationFrames = 100
        let proxy = ImageProxy(configuration: configuration, sources: sources)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await proxy.run(port: 0) { portSink.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        defer { serving.cancel() }
        let client = CurlTransport()
        let pass: DemoProxyPass
        do {
            pass = try await run(port: port, origin: origin, proxy: proxy, client: client, writingInto: folder)
            await client.shutdown()
        } catch {
            await client.shutdown()
            throw error
        }
        serving.cancel()
        try await serving.value
        await sources.shutdown()
        return pass
    }

    private static func run(
        port: Int, origin: URL, proxy: ImageProxy, client: CurlTransport, writingInto folder: URL
    ) async throws -> DemoProxyPass {
        func path(_ sample: String, _ options: String) -> URL {
            let source = origin.appendingPathComponent(sample).absoluteString
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            return URL(string: "http://127.0.0.1:\(port)/unsafe/\(options)/plain/\(source)")!
        }
        func get(_ url: URL) async -> (status: Int, type: String, data: Data) {
            do {
                let fetched = try await client.data(for: TransportRequest(url: url))
                return (fetched.response.statusCode, fetched.response.headers["Content-Type"] ?? "", fetched.data)
            } catch {
                return (error.statusCode ?? 0, "", Data())
            }
        }

        var rows: [Row] = []
        var failures = 0
        let clock = ContinuousClock()
        for (sample, options) in plan {
            let start = clock.now
            let answer = await get(path(sample, options))
            let elapsed = Measurements.milliseconds(clock.now - start)
            if answer.status == 200 {
                let name = (sample as NSString).deletingPathExtension + "." + (answer.type.split(separator: "/").last ?? "bin")
                try answer.data.write(to: folder.appendingPathComponent(name))
            } else {
                failures += 1
            }
            rows.append(
                Row(
                    name: sample, options: options, status: answer.status, contentType: answer.type, bytes: answer.data.count,
                    milliseconds: elapsed))
        }
        // The same URLs again: every one from the output cache, no origin request.
        var hits = 0
        for (sample, options) in plan where await get(path(sample, options)).status == 200 { hits += 1 }
        // Many clients at once for an output nobody asked yet: one source fetch, one render.
        let shared = path("photo-gray.jpg", "rs:fill:128:128")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<simultaneousClients { group.addTask { await get(shared).status } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        failures += statuses.filter { $0 != 200 }.count + (plan.count - hits)
        return DemoProxyPass(rows: rows, repeatedHits: hits, statistics: proxy.statistics, failures: failures)
    }

    func render(folder: URL) -> String {
        var table = TextTable(header: ["proxy (cold)", "options", "status", "type", "bytes", "ms"], rightAligned: [2, 4, 5])
        for row in rows {
            table.append([
                row.name, row.options, "\(row.status)", row.contentType, Measurements.short(bytes: row.bytes),
                Measurements.text(milliseconds: row.milliseconds),
            ])
        }
        let counts = [
            "proxy: \(statistics.requests) requests, \(statistics.renders) renders, \(statistics.outputCacheHits) from its output cache, "
                + "\(statistics.coalesced) waited for a render already running",
            "the same \(rows.count) URLs again: \(repeatedHits) answered; \(Self.simultaneousClients) clients at once for one new "
                + "thumbnail: one render",
            "thumbnails: \(folder.path)",
        ]
        return table.render() + "\n" + counts.joined(separator: "\n")
    }
}
