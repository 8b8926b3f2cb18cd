import CTurboJPEG
import Foundation
import WebImage
import WebImageResources
import WebImageTestServer

#if canImport(Glibc)
    import Glibc
#endif

/// The image proxy: `webimage proxy` beside thumbor 7.8 (its default Pillow engine, no
/// storage), both cold, making 500 distinct 1600x1200 JPEGs from the loopback origin into
/// thumbnails that fit 300x300, JPEG quality 80, 32 requests at a time. thumbor runs one
/// process per core (requests spread round-robin over their ports), as its docs advise,
/// and as one process. Each server is a process of its own, so its CPU is its own.
///
/// Also: the CPU per image of the engine imgproxy and imagor use (pyvips
/// `thumbnail_buffer` + `jpegsave_buffer`, one thread) and of libjpeg-turbo's floor (a
/// DCT-scaled decode and `tjCompress2`; the median of three passes), on the same files
/// in this process; the CPU of
/// 100 identical concurrent requests after the first; and the warm rate (output cache)
/// under `wrk` beside `wrk` on a static file from the origin.
enum ProxyCase {
    static let name = "Proxy: 500 1600x1200 JPEGs to fit 300x300 JPEG q80, 32 at a time, beside thumbor"
    static let count = 500
    static let concurrency = 32
    static let vipsPeer = "pyvips thumbnail_buffer + jpegsave_buffer, 1 thread"

    struct Run {
        let seconds: Double
        let latencies: [Double]
        let cpuSeconds: Double
        var rate: Double { Double(latencies.count) / seconds }
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    }

    static func run(server origin: LoopbackServer, root: URL) throws {
        print("\(name):")
        try FetchThumbnailCase.writeFiles(into: root, count: count)
        let sources = (0..<count).map { origin.url("/files/\(FetchThumbnailCase.fileName($0))") }
        guard let program = webimageProgram() else {
            Findings.skip(
                .proxy, name,
                reason: "no release webimage (make bench builds it: swift build --package-path Tools -c release --product webimage)")
            print("")
            return
        }
        // libjpeg-turbo's floor, one pass now, beside our run, and two at the end: on
        // this VM one pass moved by a fifth from run to run, so the ratio takes the
        // median of three.
        let files = try (0..<count).map { try Data(contentsOf: root.appendingPathComponent(FetchThumbnailCase.fileName($0))) }
        var floorPasses = [try turboFloor(files)]

        // Ours.
        let port = ProxyProcess.freePort()
        let ours = try ProxyProcess(
            executable: program,
            arguments: ["proxy", "--port", "\(port)", "--allow-non-public", "--queue", "10000"], port: port,
            waitFor: { ProxyProcess.answers(URL(string: "http://127.0.0.1:\(port)/health")!) })
        let oursURLs = sources.map { oursURL(port: port, options: "rs:fit:300:300/q:80/f:jpeg", source: $0) }
        let oursRun = try drive(oursURLs, servers: [ours])
        let repeated = try identicalRequests(port: port, ours: ours, sources: sources)
        let warm = warmRate(url: oursURLs[0], static: origin.url("/files/\(FetchThumbnailCase.fileName(0))"))
        try ProxyFeatureCases.run(port: port, ours: ours, sources: sources, root: root)
        ours.stop()
        var rows: [(String, Run)] = [("webimage proxy", oursRun)]

        // thumbor, one process per core, then one.
        if let thumbor = thumborCommand() {
            for processes in [ProcessResources.current.usableCores, 1] {
                let servers = try (0..<processes).map { _ in try startThumbor(thumbor) }
                let urls = sources.enumerated().map { index, source in
                    let base = "http://127.0.0.1:\(servers[index % processes].port)"
                    return URL(string: base + "/unsafe/fit-in/300x300/filters:quality(80)/" + source.absoluteString)!
                }
                rows.append(("thumbor 7.8, \(processes) process\(processes == 1 ? "" : "es")", try drive(urls, servers: servers)))
                for server in servers { server.stop() }
            }
        } else {
            Findings.skip(.proxy, "webimage proxy beside thumbor", reason: "no thumbor (make bench-peers installs it)")
        }
        floorPasses += [try turboFloor(files), try turboFloor(files)]
        let floor = floorPasses.sorted()[1]
        let vips = try pyvipsCPU(root: root)

        print("  server                      images/s    p50 ms    p99 ms   CPU ms/image")
        for (label, run) in rows {
            print(
                "  \(Report.pad(label, 26)) \(format(run.rate, 9, 1)) \(format(run.percentile(0.5) * 1000, 9, 1)) "
                    + "\(format(run.percentile(0.99) * 1000, 9, 1)) \(format(run.cpuSeconds / Double(count) * 1000, 14, 2))")
        }
        print(
            "  libjpeg-turbo floor (DCT-scaled decode + tjCompress2, 1 thread): \(format(floor * 1000, 0, 2)) ms/image, "
                + "the median of passes of \(floorPasses.map { format($0 * 1000, 0, 2) }.joined(separator: ", ")) ms")
        if let vips { print("  pyvips thumbnail_buffer + jpegsave_buffer, 1 thread: \(format(vips * 1000, 0, 2)) ms/image") }
        let ourCPU = oursRun.cpuSeconds / Double(count)
        let ourRate = Figure(label: "webimage proxy", value: oursRun.rate, unit: "images/s")
        if rows.count == 3 {
            // At least 1.5x thumbor at one process per core and 3x one process; our p99 below thumbor's p50.
            for (row, goal) in [(rows[1], 1.5), (rows[2], 3)] {
                Findings.record(
                    .proxy, "Cold thumbnails, images per second", ours: ourRate,
                    peer: Figure(label: row.0, value: row.1.rate, unit: "images/s"),
                    measured: Figure(label: "ours / peer, rate", value: oursRun.rate / row.1.rate, unit: "x"), goal: .atLeast(goal))
            }
            Findings.record(
                .proxy, "Latency: our p99 against thumbor's p50",
                ours: Figure(label: "our p99", value: oursRun.percentile(0.99) * 1000, unit: "ms"),
                peer: Figure(label: "\(rows[1].0), p50", value: rows[1].1.percentile(0.5) * 1000, unit: "ms"),
                measured: Figure(label: "our p99 / their p50", value: oursRun.percentile(0.99) / rows[1].1.percentile(0.5), unit: "x"),
                goal: .below(1))
        }
        let cpuName = "CPU per image"
        let ourCPUFigure = Figure(label: "webimage proxy", value: ourCPU * 1000, unit: "ms")
        if let vips {
            Findings.record(
                .proxy, cpuName, ours: ourCPUFigure, peer: Figure(label: vipsPeer, value: vips * 1000, unit: "ms"),
                measured: Figure(label: "ours / peer", value: ourCPU / vips, unit: "x"), goal: .atMost(0.6))
        } else {
            Findings.skip(.proxy, "\(cpuName) beside pyvips", reason: Findings.whyLeftOut(vipsPeer))
        }
        Findings.record(
            .proxy, cpuName, ours: ourCPUFigure,
            peer: Figure(label: "DCT-scaled tjDecompress2 + tjCompress2", value: floor * 1000, unit: "ms"),
            measured: Figure(label: "ours / floor", value: ourCPU / floor, unit: "x"), goal: .atMost(1.25))
        // The kernel counts a process's CPU in ticks (10 ms), so over 99 requests the
        // figure moves in steps of about 0.1 ms; 0 means under one step.
        let step = 1000 / Double(sysconf(Int32(_SC_CLK_TCK))) / 99
        print("  100 identical concurrent requests: CPU read in steps of \(format(step, 0, 2)) ms")
        let identical = Figure(label: "CPU each after the first", value: repeated * 1000, unit: "ms")
        Findings.record(.proxy, "100 identical concurrent requests", ours: identical, peer: nil, measured: identical, goal: .below(1))
        let warmName = "Warm (output cache) under wrk"
        if let warm {
            Findings.record(
                .proxy, warmName, ours: Figure(label: "webimage proxy", value: warm.proxy, unit: "requests/s"),
                peer: Figure(label: "a static file from the origin", value: warm.origin, unit: "requests/s"),
                measured: Figure(label: "ours / peer, rate", value: warm.proxy / warm.origin, unit: "x"))
        } else {
            Findings.skip(.proxy, warmName, reason: "no wrk (make bench-deps installs it)")
        }
        print("")
    }

    static func oursURL(port: Int, options: String, source: URL) -> URL {
        let encoded = source.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return URL(string: "http://127.0.0.1:\(port)/unsafe/\(options)/plain/\(encoded)")!
    }

    /// The release `webimage` beside this package (`make bench` builds it).
    static func webimageProgram() -> URL? {
        let candidates = [
            ProcessInfo.processInfo.environment["WEBIMAGE_PROGRAM"],
            FileManager.default.currentDirectoryPath + "/../Tools/.build/release/webimage",
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }.map {
            URL(fileURLWithPath: $0).standardizedFileURL
        }
    }

    /// Every URL once, `concurrency` at a time, each answer checked to be a 300x225 image
    /// in `format` (or, for `nil`, any answer with status 200).
    static func drive(_ urls: [URL], servers: [ProxyProcess], format: ImageFormat? = .jpeg) throws -> Run {
        var configuration = TransportConfiguration()
        configuration.maximumConnectionsPerHost = concurrency
        let client = CurlTransport(configuration: configuration)
        let cpuBefore = servers.reduce(0) { $0 + $1.cpuSeconds }
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try LoopbackBench.blocking {
            try await withThrowingTaskGroup(of: Double.self) { group in
                var next = 0
                var latencies: [Double] = []
                func add() {
                    let url = urls[next]
                    next += 1
                    group.addTask {
                        let began = ContinuousClock.now
                        let fetched = try await client.data(for: TransportRequest(url: url))
                        if let format {
                            let info = try ImageDecoderRegistry.allFormats.header(of: fetched.data).info
                            guard info.format == format, info.size == PixelSize(width: 300, height: 225) else {
                                throw Baseline.Failure(description: "\(url): a \(info.format) of \(info.size), not a 300x225 \(format)")
                            }
                        } else if fetched.response.statusCode != 200 {
                            throw Baseline.Failure(description: "\(url): status \(fetched.response.statusCode)")
                        }
                        return Double((ContinuousClock.now - began).components.attoseconds) / 1e18
                            + Double((ContinuousClock.now - began).components.seconds)
                    }
                }
                while next < min(concurrency, urls.count) { add() }
                while let latency = try await group.next() {
                    latencies.append(latency)
                    if next < urls.count { add() }
                }
                return latencies.sorted()
            }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Run(seconds: seconds, latencies: latencies, cpuSeconds: servers.reduce(0) { $0 + $1.cpuSeconds } - cpuBefore)
    }

    /// The proxy's CPU per request for 100 identical concurrent requests of an output not
    /// made yet, less one render's CPU (measured on another new output first), over 99.
    static func identicalRequests(port: Int, ours: ProxyProcess, sources: [URL]) throws -> Double {
        func cpu(_ urls: [URL]) throws -> Double {
            let before = ours.cpuSeconds
            _ = try drive(urls, servers: [])
            usleep(100_000)  // the last request's accounting settles
            return ours.cpuSeconds - before
        }
        // 300x225 again (the check in `drive`), from sources the main run did not use at this size.
        let single = try cpu([oursURL(port: port, options: "rs:fit:300:300/q:81/f:jpeg", source: sources[1])])
        let shared = oursURL(port: port, options: "rs:fit:300:300/q:81/f:jpeg", source: sources[2])
        let identical = try cpu(Array(repeating: shared, count: 100))
        return max(0, identical - single) / 99
    }

    /// thumbor's command, when it is installed.
    static func thumborCommand() -> [String]? {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import thumbor.server"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? ["python3", "-m", "thumbor.server"] : nil
    }

    /// One thumbor on a free port: Pillow engine, HTTP loader, no storage, no result storage.
    static func startThumbor(_ command: [String]) throws -> ProxyProcess {
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-thumbor-\(getpid()).conf")
        try """
        LOADER = 'thumbor.loaders.http_loader'
        STORAGE = 'thumbor.storages.no_storage'
        RESULT_STORAGE = None
        ENGINE = 'thumbor.engines.pil'
        QUALITY = 80
        ALLOW_UNSAFE_URL = True
        HTTP_LOADER_MAX_CLIENTS = 64
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let port = ProxyProcess.freePort()
        return try ProxyProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: command + ["--port", "\(port)", "--conf", configuration.path, "--log-level", "error"], port: port,
            waitFor: { ProxyProcess.answers(URL(string: "http://127.0.0.1:\(port)/healthcheck")!) })
    }

    /// libjpeg-turbo alone: each file decoded at the DCT scale that still covers 300x225
    /// (400x300), 300x225 of it compressed at quality 80; CPU seconds per image.
    static func turboFloor(_ files: [Data]) throws -> Double {
        guard let decompressor = tjInitDecompress(), let compressor = tjInitCompress() else {
            throw Baseline.Failure(description: "TurboJPEG handles")
        }
        defer {
            tjDestroy(decompressor)
            tjDestroy(compressor)
        }
        var pixels = [UInt8](repeating: 0, count: 400 * 300 * 4)
        let start = threadCPUSeconds()
        for file in files {
            let status = file.withUnsafeBytes { bytes in
                pixels.withUnsafeMutableBytes { output -> Int32 in
                    let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    guard
                        tjDecompress2(
                            decompressor, source, UInt(bytes.count), output.baseAddress!.assumingMemoryBound(to: UInt8.self), 400, 0,
                            300, Int32(TJPF_RGBA.rawValue), 0) == 0
                    else { return -1 }
                    var jpeg: UnsafeMutablePointer<UInt8>?
                    var size: UInt = 0
                    defer { tjFree(jpeg) }
                    return tjCompress2(
                        compressor, output.baseAddress!.assumingMemoryBound(to: UInt8.self), 300, 400 * 4, 225,
                        Int32(TJPF_RGBA.rawValue), &jpeg, &size, Int32(TJSAMP_420.rawValue), 80, 0)
                }
            }
            guard status == 0 else { throw Baseline.Failure(description: "libjpeg-turbo floor failed") }
        }
        return (threadCPUSeconds() - start) / Double(files.count)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// pyvips's CPU per image on the same files, one libvips thread.
    static func pyvipsCPU(root: URL) throws -> Double? {
        try pyvipsCPU(root: root, files: count, save: "jpegsave_buffer(Q=80)", peer: vipsPeer)
    }

    /// pyvips's CPU per image for the first `files` files: `thumbnail_buffer` to fit
    /// 300x300, then `save` on the thumbnail, one libvips thread; `nil` without pyvips.
    static func pyvipsCPU(root: URL, files: Int, save: String, peer name: String) throws -> Double? {
        let names = (0..<files).map { root.appendingPathComponent(FetchThumbnailCase.fileName($0)).path }
        guard
            let peer = PythonPeer(
                setup: """
                    import os
                    os.environ["VIPS_CONCURRENCY"] = "1"
                    import pyvips
                    pyvips.cache_set_max(0)
                    files = [open(name, "rb").read() for name in \(names)]
                    def run():
                        for data in files:
                            image = pyvips.Image.thumbnail_buffer(data, 300, height=300)
                            image.\(save)
                    """,
                peer: name)
        else { return nil }
        let before = ProxyProcess.cpuSeconds(of: peer.processIdentifier)
        try peer.run(1)
        return (ProxyProcess.cpuSeconds(of: peer.processIdentifier) - before) / Double(files)
    }

    /// Requests per second under `wrk` (2 threads, 32 connections, 5 s) on the proxy's
    /// warm URL and on the origin's static file; `nil` without wrk.
    static func warmRate(url: URL, static file: URL) -> (proxy: Double, origin: Double)? {
        func rate(_ target: URL) -> Double? {
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["wrk", "-t", "2", "-c", "\(concurrency)", "-d", "5s", target.absoluteString]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") })
            else { return nil }
            return Double(line.split(separator: " ").last ?? "")
        }
        guard let proxy = rate(url), let origin = rate(file) else { return nil }
        return (proxy, origin)
    }

    static func format(_ value: Double, _ width: Int, _ decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
