import CBaselines
import Dispatch
import Foundation
import Synchronization
import WebImage
import WebImageResources
import WebImageTestServer

#if canImport(Glibc)
    import Glibc
#endif

/// The cold load: the 1000 distinct 256x256 JPEGs of the fixtures, served as files
/// by the loopback server, loaded through the manager (download, decode, memory store,
/// disk writes off the path): beside a single-threaded C loop doing the same (libcurl
/// multi, TurboJPEG as each transfer completes), and beside the two halves alone,
/// download alone and decode alone. With two cores, a loader that overlaps the halves
/// takes about as long as the longer one.
enum ColdLoadCases {
    /// Connections to the one host: the transport's default, and the C loop's.
    static let connections = 6
    static let name = "1000 JPEGs cold through the manager"

    /// The files' directory, removed at exit; a static so the C `atexit` callback can
    /// reach it.
    nonisolated(unsafe) static var root: String?

    static func fileName(_ index: Int) -> String { "photo-256x256-\(index).jpg" }

    /// Writes `images` as the files the server's /files/ route serves, one name each, so
    /// every URL is distinct.
    static func writeDocumentRoot(_ images: [Data]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-files-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        root = folder.path
        atexit { if let root = ColdLoadCases.root { try? FileManager.default.removeItem(atPath: root) } }
        for (index, data) in images.enumerated() {
            try data.write(to: folder.appendingPathComponent(fileName(index)))
        }
        return folder
    }

    static func all(server: LoopbackServer, images: [Data], rounds: Int) throws -> [BenchmarkCase] {
        let urls = images.indices.map { server.url("/files/\(fileName($0))") }
        let expectedBytes = images.reduce(0) { $0 + $1.count }
        let fresh = try FreshManager(name: "cold", expectedEntries: urls.count)
        let memoryOnly = try FreshManager(name: "cold-memory", expectedEntries: urls.count, usesDisk: false)
        let onThePool = try FreshManager(name: "cold-pool", expectedEntries: urls.count, usesOwnExecutor: false)
        let viaCallbacks = try FreshManager(name: "cold-callbacks", expectedEntries: urls.count)
        let notifying = try FreshManager(name: "cold-notifying", expectedEntries: urls.count, postsNotifications: true)
        let keepingNothing = try FreshManager(name: "cold-nothing", expectedEntries: urls.count, usesDisk: false, keepsImages: false)
        let downloader = FreshDownloader()
        var contenders = [
            Contender(
                name: "ours (ImageManager, all image(for:) at once)",
                run: {
                    try throughManager(fresh.manager, urls)
                }, prepare: { try fresh.renew() }),
            Contender(name: cLoopName) {
                try cLoop(urls, expectedBytes: expectedBytes)
            },
            // The same loads through the callback API, each result handled on the thread
            // that made it: the pipeline without the caller's side of async/await (each
            // caller's task resumed, and the task group's parent woken for its result).
            Contender(
                name: callbacksName,
                run: {
                    try throughCallbacks(viaCallbacks.manager, urls)
                }, prepare: { try viaCallbacks.renew() }),
            cPipeline(urls, expectedBytes: expectedBytes, images: .dropped),
            cPipeline(urls, expectedBytes: expectedBytes, images: .kept),
            cPipeline(urls, expectedBytes: expectedBytes, images: .keptPrefaulted),
            Contender(
                name: "download alone (ImageDownloader)",
                run: {
                    try downloadAlone(downloader.current, urls, expectedBytes)
                }, prepare: { downloader.renew() }),
            decodeAlone(images, threads: 1),
            decodeAlone(images, threads: 2),
            keepingDecodes(images),
            // The disk cache's share of a cold load: its miss read before every
            // download, and the writes after.
            Contender(
                name: "ours without a disk cache",
                run: {
                    try throughManager(memoryOnly.manager, urls)
                }, prepare: { try memoryOnly.renew() }),
            // The pipeline on the floor's own terms: download and decode, nothing kept (no
            // disk cache, a memory cache that holds nothing), so each image's memory is
            // freed when its caller drops it and reused, as decode alone reuses it.
            Contender(
                name: keepingNothingName,
                run: {
                    try throughManager(keepingNothing.manager, urls)
                }, prepare: { try keepingNothing.renew() }),
            // What the seeds' notifications cost a cold load: each download and transfer
            // event posted through NotificationCenter, with no observer.
            Contender(
                name: notifyingName,
                run: {
                    try throughManager(notifying.manager, urls)
                }, prepare: { try notifying.renew() }),
            // What the manager's own executor costs or saves a cold load: the
            // same loads with `executor = nil`, on Swift's cooperative pool.
            Contender(
                name: "ours on the cooperative pool (executor nil)",
                run: {
                    try throughManager(onThePool.manager, urls)
                }, prepare: { try onThePool.renew() }),
        ]
        // Whether the cold pipeline uses the machine: the process CPU time of each run
        // of the two halves alone (the in-process server's included, as in the pipeline).
        for index in contenders.indices where cpuMeasured.contains(where: contenders[index].name.hasPrefix) {
            let (name, run) = (contenders[index].name, contenders[index].run)
            contenders[index].run = {
                let before = ThreadCPU.Snapshot.now()
                try run()
                let after = ThreadCPU.Snapshot.now()
                cpuSeconds.withLock { $0[name, default: []].append(after.process - before.process) }
                cpuByRole.withLock { $0[name, default: []].append(after.spent(since: before)) }
            }
        }
        // Before every run, whoever's turn it is: the last manager's disk writes (off its
        // loads' path, so maybe still under way) are finished and it is dropped, so that
        // no contender's time holds another's background work; and the server's records
        // are cleared (1000 per run would pile up; the coalescing case, their only
        // reader, clears them itself).
        for index in contenders.indices {
            let own = contenders[index].prepare
            contenders[index].prepare = {
                server.resetRecords()
                try fresh.retire()
                try memoryOnly.retire()
                try onThePool.retire()
                try viaCallbacks.retire()
                try notifying.retire()
                try keepingNothing.retire()
                releaseCKept()
                try own()
                // Every run starts with the memory the last one freed given back to the
                // system, so that whichever contender follows a run that held 250 MiB of
                // images does not find its pages already faulted in.
                bl_release_free_memory()
            }
        }
        return [
            BenchmarkCase(
                section: .manager, name: name, contenders: contenders, imagesPerRun: images.count, rounds: Swift.max(3, rounds / 2),
                // At least the C loop's rate; the C pipeline for context.
                comparisons: [.rate(.atLeast(1), against: cLoopName), .time(against: CPipelineImages.dropped.name)])
        ]
    }

    /// The goal: the pipeline's time at most this multiple of the floor, the CPU of
    /// download alone and of decode alone over the usable cores.
    static let floorGoal = 1.15

    /// The contenders whose CPU time is measured: the two halves alone, and what is set
    /// beside them.
    static let cpuMeasured = [
        "ours (ImageManager", callbacksName, keepingNothingName, "download alone",
        "decode alone (JPEGDecoder, 1 thread)", "ours without a disk cache", keepingName,
        CPipelineImages.dropped.name, CPipelineImages.kept.name, CPipelineImages.keptPrefaulted.name,
    ]
    static let keepingNothingName = "ours keeping nothing (no disk, memory 0)"
    static let notifyingName = "ours posting notifications (postsNotifications)"
    static let cLoopName = "C loop (libcurl multi + TurboJPEG, 1 thread)"
    /// CPU seconds of each run, by contender.
    static let cpuSeconds = Mutex<[String: [Double]]>([:])
    /// The same, by the threads' roles.
    static let cpuByRole = Mutex<[String: [[ThreadCPU.Role: Double]]]>([:])

    /// Every URL through `image(for:)`, all started at once (a task group on the
    /// cooperative pool, as an app's views would ask), waiting for the last image.
    static func throughManager(_ manager: ImageManager?, _ urls: [URL]) throws {
        guard let manager else { throw Baseline.Failure(description: "manager: none prepared") }
        let loaded = try LoopbackBench.blocking {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for url in urls {
                    group.addTask { isExpected(try await manager.image(for: url)) }
                }
                var count = 0
                for try await right in group where right { count += 1 }
                return count
            }
        }
        try check(loaded: loaded, of: urls.count)
    }

    static let callbacksName = "ours, callbacks (loadImage, .immediate)"

    /// Every URL through `loadImage(with:delivery: .immediate)`, all at once, the
    /// benchmark's thread waiting for the last result.
    static func throughCallbacks(_ manager: ImageManager?, _ urls: [URL]) throws {
        guard let manager else { throw Baseline.Failure(description: "manager: none prepared") }
        let countdown = Countdown(urls.count)
        let right = Atomic<Int>(0)
        let tokens = urls.map { url in
            manager.loadImage(with: ImageRequest(url: url), delivery: .immediate) { event in
                guard case .completed(let result) = event else { return }
                if case .success(let response) = result, let image = response.image, isExpected(image) {
                    right.add(1, ordering: .relaxed)
                }
                countdown.finish()
            }
        }
        countdown.wait()
        withExtendedLifetime(tokens) {}
        try check(loaded: right.load(ordering: .relaxed), of: urls.count)
    }

    /// Every image of the case is a 256x256 JPEG.
    static func isExpected(_ image: DecodedImage) -> Bool {
        image.size.width == 256 && image.size.height == 256
    }

    static func check(loaded: Int, of count: Int) throws {
        guard loaded == count else {
            throw Baseline.Failure(description: "manager: \(loaded) of \(count) images loaded at 256x256")
        }
    }

    /// A new downloader for every run, as the manager and the C loop start with no
    /// connections: without it, download alone would keep last run's open connections.
    final class FreshDownloader {
        private(set) var current = FreshDownloader.make()
        func renew() { current = Self.make() }
        /// The manager's downloader: `WebImageConfiguration`'s defaults (6 downloads at
        /// once, `CurlTransport` with 6 connections per host).
        static func make() -> ImageDownloader {
            let configuration = WebImageConfiguration()
            return ImageDownloader(
                transport: CurlTransport(configuration: configuration.transport),
                registry: CallbackRegistry<DownloadKey, ReceivedBody, DownloadResult, DownloadError>(),
                configuration: configuration.downloader)
        }
    }

    /// Every body through the downloader the manager is built on, bytes counted and
    /// dropped, nothing decoded.
    static func downloadAlone(_ downloader: ImageDownloader, _ urls: [URL], _ expectedBytes: Int) throws {
        let countdown = Countdown(urls.count)
        let bytes = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        for url in urls {
            downloader.download(DownloadRequest(url: url)) { event in
                guard case .completed(let result) = event else { return }
                switch result {
                case .success(let download): bytes.add(download.data.count, ordering: .relaxed)
                case .failure: failures.add(1, ordering: .relaxed)
                }
                countdown.finish()
            }
        }
        countdown.wait()
        try TransportCases.check(bytes.load(ordering: .relaxed), expectedBytes, failures: failures.load(ordering: .relaxed))
    }

    /// `bl_fetch_decode_all`: one thread, each body decoded as its transfer completes.
    static func cLoop(_ urls: [URL], expectedBytes: Int) throws {
        var bytes: Int64 = 0
        let decoded = withCStrings(urls) { strings, count in bl_fetch_decode_all(strings, count, Int32(connections), &bytes) }
        guard decoded == urls.count, Int(bytes) == expectedBytes else {
            throw Baseline.Failure(description: "C loop: \(decoded) of \(urls.count) decoded, \(bytes) of \(expectedBytes) bytes")
        }
    }

    /// What the C pipeline does with each image once decoded.
    enum CPipelineImages: CaseIterable {
        /// Frees it at once, as decode alone does: the CPU floor's own terms.
        case dropped
        /// Keeps it to the end of the run, as the manager's memory cache does.
        case kept
        /// Keeps it, its pages mapped in one call before the decode (as the manager's
        /// pixel storage does for a still image).
        case keptPrefaulted

        var name: String {
            switch self {
            case .dropped: "C pipeline (1 libcurl + \(decoders) TurboJPEG threads)"
            case .kept: "C pipeline keeping its images"
            case .keptPrefaulted: "C pipeline keeping, pages prefaulted"
            }
        }
    }

    /// The pixels the last run of a keeping C pipeline held, freed before the next run
    /// (untimed).
    nonisolated(unsafe) static var cKept: [UnsafeMutableRawPointer?] = []

    /// The C pipeline's decoding threads: as many as the manager's workers (the cores the
    /// process may use).
    static let decoders = ProcessResources.current.usableCores

    /// `bl_fetch_decode_pipelined`: the manager's shape (one thread transferring, as many
    /// decoding as the manager has workers, the server beside them) with nothing but the
    /// C libraries and a handover in it. Beside the CPU floor it shows what
    /// overlapping the two halves reaches on this machine in bare C, and what keeping the
    /// images adds to it.
    static func cPipeline(_ urls: [URL], expectedBytes: Int, images: CPipelineImages) -> Contender {
        Contender(
            name: images.name,
            run: {
                var bytes: Int64 = 0
                let decoded = withCStrings(urls) { strings, count in
                    guard images != .dropped else {
                        return bl_fetch_decode_pipelined(strings, count, Int32(connections), Int32(decoders), nil, 0, &bytes)
                    }
                    return cKept.withUnsafeMutableBufferPointer {
                        bl_fetch_decode_pipelined(
                            strings, count, Int32(connections), Int32(decoders), $0.baseAddress,
                            images == .keptPrefaulted ? 1 : 0, &bytes)
                    }
                }
                guard decoded == urls.count, Int(bytes) == expectedBytes else {
                    throw Baseline.Failure(
                        description: "C pipeline: \(decoded) of \(urls.count) decoded, \(bytes) of \(expectedBytes) bytes")
                }
            },
            prepare: {
                if cKept.count != urls.count { cKept = Array(repeating: nil, count: urls.count) }
            })
    }

    /// Frees what a keeping C pipeline held, before every run of any contender.
    static func releaseCKept() {
        cKept.withUnsafeMutableBufferPointer { bl_free_kept($0.baseAddress, Int32($0.count)) }
    }

    /// The same bytes decoded with no network: on one thread (as the "1000 JPEGs
    /// 256x256" case; the goal's reading is one core downloading while the other
    /// decodes), and split over both cores, as the manager's decodes can run (on the
    /// cooperative pool), to show what decoding alone could reach.
    static func decodeAlone(_ images: [Data], threads: Int) -> Contender {
        if threads == 1 {
            return Contender(name: "decode alone (JPEGDecoder, 1 thread)") {
                for data in images { consume(try JPEGDecoder().decode(data)) }
            }
        }
        return Contender(name: "decode alone (JPEGDecoder, \(threads) threads)") {
            let failures = Atomic<Int>(0)
            let chunk = (images.count + threads - 1) / threads
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                for data in images[(part * chunk)..<Swift.min(images.count, (part + 1) * chunk)] {
                    do { consume(try JPEGDecoder().decode(data)) } catch { failures.add(1, ordering: .relaxed) }
                }
            }
            guard failures.load(ordering: .relaxed) == 0 else {
                throw Baseline.Failure(description: "decode alone: \(failures.load(ordering: .relaxed)) failures")
            }
        }
    }

    static let keepingName = "decode alone, keeping every image (1 thread)"
    /// The last run's images of `keepingDecodes`, dropped before its next run (untimed).
    nonisolated(unsafe) static var kept: [DecodedImage] = []

    /// Decode alone as above, but holding all 1000 images to the end, as the pipeline's
    /// memory cache does: each image's 256 KiB is then new memory the kernel must fault in
    /// and zero (65,000 page faults, about 0.2 s of CPU on these machines), where decode
    /// alone frees each image and reuses its pages. The floor that counts this is printed
    /// beside the CPU floor.
    static func keepingDecodes(_ images: [Data]) -> Contender {
        Contender(
            name: keepingName,
            run: {
                var decoded: [DecodedImage] = []
                decoded.reserveCapacity(images.count)
                for data in images { decoded.append(try JPEGDecoder().decode(data)) }
                kept = decoded
            }, prepare: { kept = [] })
    }

    /// Where each measured contender's CPU went, by the threads' roles: for each role, the
    /// median of the contender's runs, in milliseconds.
    static func printCPUByRole() {
        let byRole = cpuByRole.withLock { $0 }
        let roles = ThreadCPU.Role.allCases
        print("  CPU by thread, ms (median of the runs):")
        print("    \(Report.pad("", 44))" + roles.map { Report.pad($0.rawValue, 18, right: true) }.joined())
        for prefix in cpuMeasured {
            guard let (name, runs) = byRole.first(where: { $0.key.hasPrefix(prefix) }) else { continue }
            let cells = roles.map { role in
                Report.pad(String(format: "%.0f", 1000 * CaseResult.median(runs.map { $0[role] ?? 0 })), 18, right: true)
            }
            print("    \(Report.pad(String(name.prefix(44)), 44))" + cells.joined())
        }
    }

    /// Images per second of each contender, and the goals' ratios.
    static func printSummary(_ results: [CaseResult]) {
        guard let result = results.first(where: { $0.name == name }) else { return }
        let medians = Dictionary(zip(result.contenders, result.medians), uniquingKeysWith: { first, _ in first })
        print("Cold load, images per second (median run of \(result.imagesPerRun)):")
        for (contender, seconds) in zip(result.contenders, result.medians) {
            print("  \(Report.pad(contender, 46)) \(String(format: "%8.0f", Double(result.imagesPerRun) / seconds))")
        }
        let ours = result.medians[0]
        let download = medians.first { $0.key.hasPrefix("download alone") }?.value
        let decode = medians["decode alone (JPEGDecoder, 1 thread)"]
        if let download, let decode {
            let longer = Swift.max(download, decode)
            Findings.record(
                .manager, "\(name): the longer half", ours: .seconds(result.contenders[0], ours),
                peer: .seconds(download > decode ? "download alone" : "decode alone (1 thread)", longer),
                measured: Figure(label: "ours / the longer half, time", value: ours / longer, unit: "x"), goal: .atMost(1.1))
        }
        if let notifying = medians[notifyingName] {
            // No goal: the figure the umbrella's default (notifications off) is argued from.
            Findings.record(
                .manager, "\(name): posting notifications", ours: .seconds(notifyingName, notifying),
                peer: .seconds(result.contenders[0], ours),
                measured: Figure(label: "with / without notifications, time", value: notifying / ours, unit: "x"))
        }
        let cpu = cpuSeconds.withLock { $0 }
        if let downloadCPU = cpu.first(where: { $0.key.hasPrefix("download alone") }).map({ CaseResult.median($0.value) }),
            let decodeCPU = cpu["decode alone (JPEGDecoder, 1 thread)"].map(CaseResult.median)
        {
            let cores = ProcessResources.current.usableCores
            let floor = (downloadCPU + decodeCPU) / Double(cores)
            print(
                String(
                    format: "  CPU: download alone %.3f s, decode alone %.3f s; on %d cores the pipeline cannot beat %.3f s",
                    downloadCPU, decodeCPU, cores, floor))
            Findings.record(
                .manager, "\(name): the CPU floor", ours: .seconds(result.contenders[0], ours),
                peer: .seconds("(download alone + decode alone CPU) / \(cores) cores", floor),
                measured: Figure(label: "ours / the floor, time", value: ours / floor, unit: "x"), goal: .atMost(floorGoal))
            if let nothing = medians[keepingNothingName] {
                print("  ours keeping nothing, time / that floor: \(String(format: "%.2f", nothing / floor))")
            }
            if let oursCPU = cpu.first(where: { $0.key.hasPrefix("ours (ImageManager") }).map({ CaseResult.median($0.value) }) {
                print(
                    String(
                        format: "  ours used %.3f s of CPU, %.2fx the halves' sum; the cores were busy %.0f%% of its wall time",
                        oursCPU, oursCPU / (downloadCPU + decodeCPU), 100 * oursCPU / (ours * Double(cores))))
            }
            if let memoryOnlyCPU = cpu.first(where: { $0.key.hasPrefix("ours without a disk cache") }).map({ CaseResult.median($0.value) })
            {
                print(String(format: "  ours without a disk cache used %.3f s of CPU", memoryOnlyCPU))
            }
            printCPUByRole()
            if let keepingCPU = cpu[keepingName].map(CaseResult.median) {
                let keepingFloor = (downloadCPU + keepingCPU) / Double(cores)
                print(
                    String(
                        format: "  decode alone keeping its images used %.3f s of CPU (%.3f s more: the kernel's page faults);"
                            + " with it the floor is %.3f s, and ours time / that floor: %.2f",
                        keepingCPU, keepingCPU - decodeCPU, keepingFloor, ours / keepingFloor))
                // The goal read against what keeping costs: a pipeline that keeps
                // every image in fresh pages, as decode alone keeping them does, cannot be
                // faster than this floor, whatever else it does.
                let keepingShare = keepingFloor / floor
                let verdict =
                    keepingShare > floorGoal
                    ? "is below it"
                    : String(format: "leaves such a pipeline %.2fx for its own work", floorGoal / keepingShare)
                print(
                    String(
                        format: "  that floor is %.2fx the CPU floor: the least time, here, of a pipeline keeping its images"
                            + " as decode alone keeping them does; the goal (%.2fx) %@",
                        keepingShare, floorGoal, verdict))
                for images in CPipelineImages.allCases {
                    guard let time = medians[images.name] else { continue }
                    print(
                        String(
                            format: "  %@: time / the CPU floor %.2f, / the floor keeping the images %.2f; ours time / its %.2f",
                            images.name, time / floor, time / keepingFloor, ours / time))
                }
            }
        }
        print("")
    }
}
