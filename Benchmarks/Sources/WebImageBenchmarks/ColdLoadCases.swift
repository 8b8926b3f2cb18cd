import CBaselines
import Dispatch
import Foundation
import Synchronization
import WebImageCallbackRegistry
import WebImageCore
import WebImageDecoding
import WebImageOperations
import WebImageTestServer
import WebImageTransport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 6's cold load: the 1000 distinct 256x256 JPEGs of the fixtures, served as files
/// by the loopback server, downloaded and decoded: beside a single-threaded C loop doing
/// the same (libcurl multi, TurboJPEG as each transfer completes), and beside the two
/// halves alone, download alone and decode alone. With two cores, a loader that overlaps
/// the halves takes about as long as the longer one.
enum ColdLoadCases {
    /// Connections to the one host: the transport's default, and the C loop's.
    static let connections = 6
    static let name = "1000 JPEGs cold: download + decode"

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

    static func all(server: LoopbackServer, images: [Data], rounds: Int) -> [BenchmarkCase] {
        let urls = images.indices.map { server.url("/files/\(fileName($0))") }
        let expectedBytes = images.reduce(0) { $0 + $1.count }
        // Records would pile up over the runs (1000 per run); the coalescing case, the
        // only reader, clears them itself.
        let forget: () throws -> Void = { server.resetRecords() }
        return [
            BenchmarkCase(name: name, contenders: [
                Contender(name: "download alone (ImageDownloader)", run: downloadAlone(urls, expectedBytes), prepare: forget),
                Contender(name: "C loop (libcurl multi + TurboJPEG, 1 thread)", run: {
                    try cLoop(urls, expectedBytes: expectedBytes)
                }, prepare: forget),
                decodeAlone(images, threads: 1),
                decodeAlone(images, threads: 2),
            ], imagesPerRun: images.count, rounds: Swift.max(3, rounds / 2)),
        ]
    }

    /// Every body through the downloader the manager is built on (its default
    /// configuration: 6 downloads at once, over `CurlTransport`), bytes counted and
    /// dropped, nothing decoded. One downloader for all runs, as the transport cases
    /// keep one transport.
    static func downloadAlone(_ urls: [URL], _ expectedBytes: Int) -> () throws -> Void {
        let downloader = ImageDownloader(
            transport: CurlTransport(configuration: .init(maximumConnectionsPerHost: connections)),
            registry: CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>())
        return {
            let remaining = Atomic<Int>(urls.count)
            let bytes = Atomic<Int>(0), failures = Atomic<Int>(0)
            let done = DispatchSemaphore(value: 0)
            for url in urls {
                downloader.download(DownloadRequest(url: url)) { event in
                    guard case .completed(let result) = event else { return }
                    switch result {
                    case .success(let download): bytes.add(download.data.count, ordering: .relaxed)
                    case .failure: failures.add(1, ordering: .relaxed)
                    }
                    if remaining.subtract(1, ordering: .relaxed).newValue == 0 { done.signal() }
                }
            }
            done.wait()
            try TransportCases.check(bytes.load(ordering: .relaxed), expectedBytes, failures: failures.load(ordering: .relaxed))
        }
    }

    /// `bl_fetch_decode_all`: one thread, each body decoded as its transfer completes.
    static func cLoop(_ urls: [URL], expectedBytes: Int) throws {
        let strings = urls.map { strdup($0.absoluteString) }
        defer { strings.forEach { free($0) } }
        var bytes: Int64 = 0
        let pointers = strings.map { UnsafePointer($0) }
        let decoded = pointers.withUnsafeBufferPointer { buffer in
            bl_fetch_decode_all(buffer.baseAddress, Int32(urls.count), Int32(connections), &bytes)
        }
        guard decoded == urls.count, Int(bytes) == expectedBytes else {
            throw Baseline.Failure(description: "C loop: \(decoded) of \(urls.count) decoded, \(bytes) of \(expectedBytes) bytes")
        }
    }

    /// The same bytes decoded with no network: on one thread (as the existing "1000
    /// JPEGs 256x256" case; the goal's reading is one core downloading while the other
    /// decodes), and split over both cores, to show what decoding alone could reach.
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

    /// Images per second of each contender, and the goals' ratios.
    static func printSummary(_ results: [CaseResult]) {
        guard let result = results.first(where: { $0.name == name }) else { return }
        let medians = Dictionary(zip(result.contenders, result.medians), uniquingKeysWith: { first, _ in first })
        print("Cold load, images per second (median run of \(result.imagesPerRun)):")
        for (contender, seconds) in zip(result.contenders, result.medians) {
            print("  \(Report.pad(contender, 46)) \(String(format: "%8.0f", Double(result.imagesPerRun) / seconds))")
        }
        let download = medians.first { $0.key.hasPrefix("download alone") }?.value
        let decode = medians["decode alone (JPEGDecoder, 1 thread)"]
        let cLoop = medians.first { $0.key.hasPrefix("C loop") }?.value
        if let download, let decode, let cLoop {
            let longer = Swift.max(download, decode)
            print("  the longer half alone / C loop: \(String(format: "%.2f", longer / cLoop)) (what a perfect overlap would reach)")
        }
        print("")
    }
}
