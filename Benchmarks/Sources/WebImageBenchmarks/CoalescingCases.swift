import Dispatch
import Foundation
import Synchronization
import WebImageCallbackRegistry
import WebImageCore
import WebImageOperations
import WebImageTestServer
import WebImageTransport

/// The registry's subscribe, fan-out and cancel throughput (with the
/// downloader's types, through the protocol as the downloader calls it) beside a bare
/// dictionary of closures under one Mutex; the queue's cost per operation beside
/// Foundation's OperationQueue (the peers' queue); and 10,000 concurrent requests for
/// one URL beside a single request for it.
enum CoalescingCases {
    /// The registry as the downloader uses it (through `any CallbackRegistering`), with
    /// its types: what a user's downloads cost.
    typealias Registry = CallbackRegistry<DownloadKey, ReceivedBody, DownloadResult, DownloadError>
    typealias Event = DownloadEvent

    /// The least a registry can be: closures per key under one lock, called in order.
    final class BareRegistry: Sendable {
        let entries = Mutex<[DownloadKey: [Int: @Sendable (Event) -> Void]]>([:])
        let nextID = Mutex(0)
        func add(_ key: DownloadKey, _ handler: @escaping @Sendable (Event) -> Void) -> Int {
            let id = nextID.withLock {
                $0 += 1
                return $0
            }
            entries.withLock { $0[key, default: [:]][id] = handler }
            return id
        }
        func remove(_ key: DownloadKey, _ id: Int) { _ = entries.withLock { $0[key]?.removeValue(forKey: id) } }
        func publish(_ key: DownloadKey, _ event: Event) {
            for handler in entries.withLock({ $0[key].map { Array($0.values) } ?? [] }) { handler(event) }
        }
        func finish(_ key: DownloadKey, _ event: Event) {
            for handler in entries.withLock({ $0.removeValue(forKey: key).map { Array($0.values) } ?? [] }) { handler(event) }
        }
    }

    static let downloadKeys = (0..<keys).map { DownloadKey(url: URL(string: "https://images.example.com/photos/\($0).jpg")!) }
    static func registry() -> any CallbackRegistering<DownloadKey, ReceivedBody, DownloadResult, DownloadError> { Registry() }

    final class Tally: Sendable {
        let count = Atomic<Int>(0)
        var handler: @Sendable (Event) -> Void { { _ in self.count.add(1, ordering: .relaxed) } }
    }

    static let subscribers = 100_000
    static let keys = 1_000

    static func registryCases() -> [BenchmarkCase] {
        [
            BenchmarkCase(
                section: .registry,
                name: "Registry: 100k subscribe + finish (1k keys)",
                contenders: [
                    Contender(name: "ours (CallbackRegistry)") {
                        let registry = registry()
                        let tally = Tally()
                        for i in 0..<subscribers {
                            registry.add(
                                to: downloadKeys[i % keys], delivery: .immediate, makeRun: { nil }, whenAbandoned: { _ in },
                                handler: tally.handler)
                        }
                        for key in downloadKeys { registry.finish(key, with: .failure(.cancelled)) }
                        try expect(tally.count.load(ordering: .relaxed), subscribers)
                    },
                    Contender(name: "bare closures under a Mutex") {
                        let registry = BareRegistry()
                        let tally = Tally()
                        for i in 0..<subscribers { _ = registry.add(downloadKeys[i % keys], tally.handler) }
                        for key in downloadKeys { registry.finish(key, .completed(.failure(.cancelled))) }
                        try expect(tally.count.load(ordering: .relaxed), subscribers)
                    },
                ], imagesPerRun: subscribers, comparisons: [.time(.atMost(1.5))]),
            BenchmarkCase(
                section: .registry,
                name: "Registry: fan-out 100 events to 1k subscribers",
                contenders: [
                    Contender(name: "ours (CallbackRegistry)") {
                        let registry = registry()
                        let tally = Tally()
                        let key = downloadKeys[0]
                        for _ in 0..<1000 {
                            registry.add(to: key, delivery: .immediate, makeRun: { nil }, whenAbandoned: { _ in }, handler: tally.handler)
                        }
                        for i in 0..<99 { registry.publishProgress(received: Int64(i), expected: 100, for: key) }
                        registry.finish(key, with: .failure(.cancelled))
                        try expect(tally.count.load(ordering: .relaxed), 100_000)
                    },
                    Contender(name: "bare closures under a Mutex") {
                        let registry = BareRegistry()
                        let tally = Tally()
                        let key = downloadKeys[0]
                        for _ in 0..<1000 { _ = registry.add(key, tally.handler) }
                        for i in 0..<99 { registry.publish(key, .progress(received: Int64(i), expected: 100)) }
                        registry.finish(key, .completed(.failure(.cancelled)))
                        try expect(tally.count.load(ordering: .relaxed), 100_000)
                    },
                ], imagesPerRun: 100_000, comparisons: [.time(.atMost(1.5))]),
            BenchmarkCase(
                section: .registry,
                name: "Registry: 100k subscribe + cancel",
                contenders: [
                    Contender(name: "ours (CallbackRegistry)") {
                        let registry = registry()
                        let tally = Tally()
                        for i in 0..<subscribers {
                            let token = registry.add(
                                to: downloadKeys[i % keys], delivery: .immediate, makeRun: { nil }, whenAbandoned: { _ in },
                                handler: tally.handler
                            ).token
                            registry.remove(token, failure: .cancelled)
                        }
                        try expect(tally.count.load(ordering: .relaxed), subscribers)
                    },
                    Contender(name: "bare closures under a Mutex") {
                        let registry = BareRegistry()
                        let tally = Tally()
                        for i in 0..<subscribers {
                            let id = registry.add(downloadKeys[i % keys], tally.handler)
                            registry.remove(downloadKeys[i % keys], id)
                            tally.handler(.completed(.failure(.cancelled)))
                        }
                        try expect(tally.count.load(ordering: .relaxed), subscribers)
                    },
                ], imagesPerRun: subscribers),
        ]
    }

    static let operations = 100_000

    static func queueCases() -> [BenchmarkCase] {
        [
            BenchmarkCase(
                section: .registry,
                name: "Queue: 100k operations, 6 at a time",
                contenders: [
                    Contender(name: "ours (DownloadQueue)") {
                        let queue = DownloadQueue(maximumConcurrentOperations: 6)
                        let done = Atomic<Int>(0)
                        let finished = DispatchSemaphore(value: 0)
                        for _ in 0..<operations {
                            queue.add { operation in
                                operation.finish()
                                if done.add(1, ordering: .relaxed).newValue == operations { finished.signal() }
                            }
                        }
                        finished.wait()
                    },
                    Contender(name: "OperationQueue") {
                        let queue = OperationQueue()
                        queue.maxConcurrentOperationCount = 6
                        let done = Atomic<Int>(0)
                        for _ in 0..<operations {
                            queue.addOperation { done.add(1, ordering: .relaxed) }
                        }
                        queue.waitUntilAllOperationsAreFinished()
                        try expect(done.load(ordering: .relaxed), operations)
                    },
                ], imagesPerRun: operations, rounds: 5)
        ]
    }

    /// 10,000 subscribers of one slow URL beside one subscriber: the difference is the
    /// cost of coalescing; the transfer count proves there was one.
    static func coalescingCases(server: LoopbackServer) -> [BenchmarkCase] {
        let downloader = ImageDownloader(
            transport: CurlTransport(), registry: CallbackRegistry<DownloadKey, ReceivedBody, DownloadResult, DownloadError>())
        let round = Atomic<Int>(0)
        func run(subscribers: Int) throws {
            let url = server.url("/slow-first-byte?ms=100&round=\(round.add(1, ordering: .relaxed).newValue)")
            let countdown = Countdown(subscribers)
            let failures = Atomic<Int>(0)
            server.resetRecords()
            for _ in 0..<subscribers {
                downloader.download(DownloadRequest(url: url)) { event in
                    guard case .completed(let result) = event else { return }
                    if case .failure = result { failures.add(1, ordering: .relaxed) }
                    countdown.finish()
                }
            }
            countdown.wait()
            let transfers = server.requests.count
            guard failures.load(ordering: .relaxed) == 0, transfers == 1 else {
                throw Baseline.Failure(description: "coalescing: \(failures.load(ordering: .relaxed)) failures, \(transfers) transfers")
            }
            lastTransferCount.store(transfers, ordering: .relaxed)
        }
        return [
            BenchmarkCase(
                section: .registry,
                name: TransportCases.names[3],
                contenders: [
                    Contender(name: "ours, 10,000 subscribers") { try run(subscribers: 10_000) },
                    Contender(name: "ours, 1 subscriber") { try run(subscribers: 1) },
                ], imagesPerRun: 1, rounds: 7)
        ]
    }

    /// Transfers the server saw in the last coalescing run (printed after the table).
    static let lastTransferCount = Atomic<Int>(0)

    static func expect(_ actual: Int, _ expected: Int) throws {
        guard actual == expected else { throw Baseline.Failure(description: "expected \(expected) deliveries, got \(actual)") }
    }
}
