import Foundation
import Metrics
import MetricsTestKit
import Testing
import WebImage
import WebImageConcurrency
import WebImageMetrics

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

    @Test("gauges read the memory budget, the caches and readings of your own when sampled")
    func gauges() throws {
        let metrics = TestMetrics()
        let budget = MemoryBudget(capacity: 1000)
        let gauges = ImageLoadGauges(manager: nil, memoryBudget: budget, extra: [("webimage_downloads_active", { 7 })], factory: metrics)
        gauges.sample()
        #expect(try metrics.expectGauge("webimage_memory_budget_bytes").lastValue == 0)
        #expect(try metrics.expectGauge("webimage_downloads_active").lastValue == 7)
    }
}
