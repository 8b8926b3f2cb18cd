import Foundation
import Synchronization
import WebImage
import WebImageResources
import WebImageTestServer

/// Responsiveness: while the pipeline cold-loads 200 large JPEGs (4000x3000,
/// full size) at concurrency 64, a 1 ms job is due every 10 ms on Swift's cooperative
/// pool (where an application's request handlers run); how late it starts, p50 and p99,
/// with the manager's own executor (`WorkerPool.shared`, the default) against the same
/// loads with `executor = nil` (decoding on the cooperative pool). Not a timed case of
/// the table: a delay distribution, printed on its own.
enum ResponsivenessCase {
    static let name = "Responsiveness beside 200 cold 4000x3000 loads"
    static let fileName = "large-4000x3000.jpg"

    struct Delays {
        var p50: Double
        var p99: Double
        var maximum: Double
        var ticks: Int
        var seconds: Double
    }

    /// Writes the large JPEG beside the cold-load files the server serves.
    static func writeFile(_ jpeg: Data, into root: URL) throws {
        try jpeg.write(to: root.appendingPathComponent(fileName))
    }

    static func run(server: LoopbackServer) throws {
        // Distinct URLs (the query is ignored by the server), so each load decodes.
        let urls = (0..<200).map { server.url("/files/\(fileName)?n=\($0)") }
        let owned = try measure(executor: WorkerPool.shared, urls: urls)
        let pool = try measure(executor: nil, urls: urls)
        func line(_ label: String, _ delays: Delays) -> String {
            "  " + Report.pad(label, 38)
                + String(
                    format: " p50 %6.2f ms   p99 %7.2f ms   max %7.2f ms   (%d ticks in %.1f s)", delays.p50, delays.p99, delays.maximum,
                    delays.ticks, delays.seconds)
        }
        print("\(name), concurrency 64: how late a 1 ms job due every 10 ms on the cooperative pool starts")
        print(line("our executor (WorkerPool.shared)", owned))
        print(line("executor nil (the cooperative pool)", pool))
        // The goals: p99 under 5 ms on our executor, and at least 20x better than on the pool.
        let ours = Figure(label: "p99 on our executor", value: owned.p99, unit: "ms")
        let peer = Figure(label: "p99 with executor nil", value: pool.p99, unit: "ms")
        Findings.record(.server, "Responsiveness: how late a 1 ms job starts, p99", ours: ours, peer: peer, measured: ours, goal: .below(5))
        Findings.record(
            .server, "Responsiveness: against loads on the cooperative pool", ours: ours, peer: peer,
            measured: Figure(label: "pool p99 / ours", value: pool.p99 / max(owned.p99, 0.001), unit: "x"), goal: .atLeast(20))
        print("")
    }

    static func measure(executor: (any TaskExecutor)?, urls: [URL]) throws -> Delays {
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.manager.executor = executor
        let manager = ImageManager(configuration: configuration)
        let ticks = Ticks()
        let started = ContinuousClock.now
        // The application's periodic job, on the cooperative pool.
        let ticker = Task.detached {
            var due = ContinuousClock.now
            while !ticks.stop.load(ordering: .relaxed) {
                due += .milliseconds(10)
                try? await Task.sleep(until: due, clock: .continuous)
                let late = ContinuousClock.now - due
                ticks.lateness.withLock { $0.append(milliseconds(late)) }
                let end = ContinuousClock.now + .milliseconds(1)
                while ContinuousClock.now < end {}
                // A late tick does not bunch the next ones up: the schedule moves on.
                if ContinuousClock.now > due { due = ContinuousClock.now }
            }
        }
        let loaded = try LoopbackBench.blocking {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                var next = 0
                var count = 0
                func add() {
                    let url = urls[next]
                    next += 1
                    group.addTask {
                        let image = try await manager.image(for: url)
                        return image.size.width == 4000 && image.size.height == 3000
                    }
                }
                while next < min(64, urls.count) { add() }
                for try await right in group {
                    if right { count += 1 }
                    if next < urls.count { add() }
                }
                return count
            }
        }
        ticks.stop.store(true, ordering: .relaxed)
        _ = try LoopbackBench.blocking { await ticker.value }
        guard loaded == urls.count else {
            throw Baseline.Failure(description: "responsiveness: \(loaded) of \(urls.count) images loaded at 4000x3000")
        }
        let sorted = ticks.lateness.withLock { $0 }.sorted()
        guard !sorted.isEmpty else { throw Baseline.Failure(description: "responsiveness: no tick ran") }
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Delays(
            p50: percentile(0.5), p99: percentile(0.99), maximum: sorted.last!, ticks: sorted.count,
            seconds: milliseconds(ContinuousClock.now - started) / 1000)
    }

    /// What the periodic job records, and its stop flag.
    final class Ticks: Sendable {
        let stop = Atomic<Bool>(false)
        let lateness = Mutex<[Double]>([])
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
