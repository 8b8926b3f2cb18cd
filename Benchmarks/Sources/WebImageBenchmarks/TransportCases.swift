import CBaselines
import Dispatch
import Foundation
import Synchronization
import WebImageCore
import WebImageTestServer
import WebImageTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport cases: many small bodies over 6 connections and over one,
/// and large ones, over loopback HTTP/1.1: ours beside a bare libcurl multi loop (the
/// floor: at most one transfer per connection in the multi handle, each finished
/// handle reused for the next URL), the same loop with every URL added at once (how
/// libcurl's examples write it), the curl program (`--parallel`) and
/// URLSession (on Linux it drives libcurl too). Every contender fetches the same URLs
/// with the same connection limit.
enum TransportCases {
    /// Counts a transfer's bytes and signals the group at its completion.
    final class Counter: TransferDelegate {
        let group: DispatchGroup
        let bytes = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        init(group: DispatchGroup) { self.group = group }
        func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
            self.bytes.add(bytes.count, ordering: .relaxed)
        }
        func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
            if case .failure = completion.result { failures.add(1, ordering: .relaxed) }
            group.leave()
        }
    }

    /// The names of the network cases (these and the coalescing one), to skip starting
    /// the server when `--only` selects none of them.
    static let names = [
        "HTTP/1.1 1000 x 15 KB, 6 connections", "HTTP/1.1 1000 x 15 KB, 1 connection", "HTTP/1.1 100 x 2 MB, 6 connections",
        "Coalescing: 10,000 requests for one URL (100 ms server)",
    ]

    /// Ours beside the bare loop, and beside the curl program and URLSession by rate.
    static let comparisons: [Comparison] = [.time(), .rate(against: "curl --parallel"), .rate(against: "URLSession")]

    static func all(server: LoopbackServer) -> [BenchmarkCase] {
        let small = (0..<1000).map { server.url("/bytes/15000?i=\($0)") }
        let large = (0..<100).map { server.url("/bytes/2000000?i=\($0)") }
        return [
            BenchmarkCase(
                section: .transport, name: names[0], contenders: contenders(small, 15000, connections: 6), imagesPerRun: small.count,
                // Many small images over a browser's six connections: the transport's own
                // work per transfer is what separates it from the bare loop here.
                comparisons: [.rate(.atLeast(0.8), against: "bare libcurl multi")] + comparisons.dropFirst()),
            BenchmarkCase(
                section: .transport, name: names[1], contenders: contenders(small, 15000, connections: 1), imagesPerRun: small.count,
                comparisons: comparisons),
            BenchmarkCase(
                section: .transport,
                name: names[2], contenders: contenders(large, 2_000_000, connections: 6),
                imagesPerRun: large.count, rounds: 5, comparisons: comparisons),
        ]
    }

    static func contenders(_ urls: [URL], _ size: Int, connections: Int) -> [Contender] {
        let expected = urls.count * size
        let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: connections))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let curlConfig = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-curl-\(UUID().uuidString).txt")
        let lines = urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined()
        _ = FileManager.default.createFile(atPath: curlConfig.path, contents: Data(lines.utf8))
        return [
            Contender(name: "ours (CurlTransport)") {
                let group = DispatchGroup()
                let counter = Counter(group: group)
                for url in urls {
                    group.enter()
                    transport.start(TransportRequest(url: url, acceptsCompressedResponses: false), delegate: counter)
                }
                group.wait()
                try check(counter.bytes.load(ordering: .relaxed), expected, failures: counter.failures.load(ordering: .relaxed))
            },
            Contender(name: "bare libcurl multi") {
                var bytes: Int64 = 0
                let ok = withCStrings(urls) { strings, count in bl_curl_fetch_windowed(strings, count, Int32(connections), &bytes) }
                try check(Int(bytes), expected, failures: urls.count - Int(ok))
            },
            Contender(name: "bare libcurl multi, every URL added at once") {
                var bytes: Int64 = 0
                let ok = withCStrings(urls) { strings, count in bl_curl_fetch_all(strings, count, Int32(connections), &bytes) }
                try check(Int(bytes), expected, failures: urls.count - Int(ok))
            },
            Contender(name: "curl --parallel") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "curl", "-sS", "--parallel", "--parallel-max", "\(connections)", "--parallel-immediate",
                    "-w", "%{size_download}\\n", "--config", curlConfig.path,
                ]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let bytes = String(decoding: printed, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
                try check(bytes, expected, failures: process.terminationStatus == 0 ? 0 : 1)
            },
            Contender(name: "URLSession") {
                let group = DispatchGroup()
                let bytes = Atomic<Int>(0)
                let failures = Atomic<Int>(0)
                for url in urls {
                    group.enter()
                    session.dataTask(with: url) { data, response, error in
                        if error != nil || (response as? HTTPURLResponse)?.statusCode != 200 { failures.add(1, ordering: .relaxed) }
                        bytes.add(data?.count ?? 0, ordering: .relaxed)
                        group.leave()
                    }.resume()
                }
                group.wait()
                try check(bytes.load(ordering: .relaxed), expected, failures: failures.load(ordering: .relaxed))
            },
        ]
    }

    static func check(_ bytes: Int, _ expected: Int, failures: Int) throws {
        guard failures == 0, bytes == expected else {
            throw Baseline.Failure(description: "transport case: \(failures) failures, \(bytes) of \(expected) bytes")
        }
    }
}
