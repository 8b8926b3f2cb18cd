import Dispatch
import Foundation
import Metrics
import MetricsTestKit
import Testing
import WebImage
import WebImageConcurrency
import WebImageMetrics
import WebImageResources
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageManager
@testable import WebImageOperations

@Suite("WebImageMetrics: counters, timers and gauges")
struct MetricsLoadMonitorTests {
    @Test("loads are counted by source and failures by error class; decodes are timed and their pixels counted")
    func counters() async throws {
        let metrics = TestMetrics()
        let monitor = MetricsLoadMonitor(factory: metrics)
        try await ThreeLoads.run(with: monitor, flush: monitor.flush)
        #expect(metrics.counterTotal(label: "webimage_loads_total", dimensions: [("source", "network")]) == 1)
        #expect(metrics.counterTotal(label: "webimage_loads_total", dimensions: [("source", "memory")]) == 1)
        #expect(metrics.counterTotal(label: "webimage_load_failures_total", dimensions: [("error_class", "download.httpStatus")]) == 1)
        #expect(metrics.counterTotal(label: "webimage_loads_cancelled_total") == 0)
        #expect(metrics.counterTotal(label: "webimage_decoded_pixels_total") == Int64(ThreeLoads.size.width * ThreeLoads.size.height))
        let decode = try metrics.expectTimer("webimage_decode_duration")
        #expect(decode.values.count == 1)
        let network = try metrics.expectTimer("webimage_load_duration", [("source", "network")])
        #expect(network.values.count == 1 && network.values[0] > 0)
    }

    @Test("each wait for the network is counted by how it ended")
    func networkWaits() async throws {
        let metrics = TestMetrics()
        let monitor = MetricsLoadMonitor(factory: metrics)
        await OneNetworkWait.run(with: monitor, flush: monitor.flush)
        #expect(metrics.counterTotal(label: "webimage_network_waits_total", dimensions: [("outcome", "network_back")]) == 1)
        #expect(metrics.counterTotal(label: "webimage_network_waits_total", dimensions: [("outcome", "timed_out")]) == 0)
        let refused = [("error_class", "download.connectionRefused")]
        #expect(metrics.counterTotal(label: "webimage_load_failures_total", dimensions: refused) == 1)
    }

    @Test("gauges read the memory budget, the caches and readings of your own when sampled")
    func gauges() throws {
        let metrics = TestMetrics()
        let budget = MemoryBudget(capacity: 1000)
        let gauges = ImageLoadGauges(manager: nil, memoryBudget: budget, extra: [("webimage_downloads_active", { 7 })], factory: metrics)
        gauges.sample()
        #expect(try metrics.expectGauge("webimage_memory_budget_bytes").lastValue == 0)
        #expect(try metrics.expectGauge("webimage_downloads_active").lastValue == 7)
    }

    @Test(
        "gauges read the manager's loads, its downloader's running and queued downloads, and the worker pool's queue",
        .timeLimit(.minutes(2)))
    func queueGauges() async throws {
        let metrics = TestMetrics()
        let pool = WorkerPool(width: 1, name: "gauge-pool")
        defer { pool.shutdown() }
        try await LoopbackServer.withServer { server in
            var configuration = WebImageConfiguration(cacheDirectory: nil)
            // One download at a time, and no stall or whole-transfer timer while the gate
            // holds it (one firing in a starved test run would free the slot early).
            configuration.downloader.maximumConcurrentDownloads = 1
            configuration.downloader.requestModifier = { request in
                var request = request
                request.timeouts = .init(connect: .seconds(30), total: nil, stall: nil)
                return request
            }
            let manager = ImageManager(configuration: configuration)
            let queue = try #require((manager.downloader as? ImageDownloader)?.queue)
            let queueChanged = EventSignal()
            let watching = queue.observeChanges(queueChanged.callback)
            defer { watching.remove() }
            let loads = ["first", "second"].map { name in
                Task { _ = try? await manager.image(for: server.url("/gate/gauges-\(name)?bytes=100&first=10")) }
            }
            // The pool's one thread is held, and one more job waits behind it: a task's
            // first job is queued on the executor it prefers as the task is made.
            let held = DispatchSemaphore(value: 0)
            let holdingStarted = AsyncStream<Void>.makeStream()
            let holding = Task(executorPreference: pool) {
                holdingStarted.continuation.yield()
                held.wait()
            }
            for await _ in holdingStarted.stream { break }
            let waiting = Task(executorPreference: pool) {}
            let gauges = ImageLoadGauges(manager: manager, memoryBudget: nil, workerPool: pool, factory: metrics)
            func reading(_ label: String) throws -> Double? {
                gauges.sample()
                return try metrics.expectGauge(label).lastValue
            }
            // One download holds the one slot at its gate; the other waits for it. Both
            // counts are waited for: the first download is also pending for a moment, until
            // the queue gives it the slot.
            await queueChanged.wait { queue.runningCount == 1 && queue.pendingCount == 1 }
            #expect(try reading("webimage_downloads_queued") == 1)
            #expect(try reading("webimage_pool_queue_depth") == 1)
            #expect(try reading("webimage_loads_active") == 2)
            #expect(try reading("webimage_downloads_running") == 1)
            held.signal()
            await holding.value
            await waiting.value
            server.openGate("gauges-first")
            server.openGate("gauges-second")
            for load in loads { await load.value }
            // A load lets go of its slot and its record just after its caller is answered.
            await manager.whenNoLoadIsUnderWay()
            await queueChanged.wait { queue.runningCount == 0 }
            #expect(try reading("webimage_loads_active") == 0)
            #expect(try reading("webimage_downloads_running") == 0)
            #expect(try reading("webimage_downloads_queued") == 0)
            #expect(try reading("webimage_pool_queue_depth") == 0)
        }
    }
}
