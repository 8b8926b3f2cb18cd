import Metrics
import WebImageConcurrency
import WebImageCore
import WebImageManager

/// The levels behind the loads, as swift-metrics gauges, read when ``sample()`` runs (or
/// every interval with ``run(every:)``):
///
/// | gauge | what |
/// |---|---|
/// | `webimage_memory_budget_bytes` | bytes of pixels reserved for decodes now |
/// | `webimage_memory_budget_waiting` | loads waiting for the budget |
/// | `webimage_memory_cache_bytes`, `webimage_memory_cache_count` | the memory cache's cost and entries |
/// | `webimage_disk_cache_bytes`, `webimage_disk_cache_count` | the disk cache's size and entries |
/// | any of `extra` | a label and a reading of your own (the downloader's `activeDownloadCount` as `webimage_downloads_active`, say) |
///
/// ```swift
/// let gauges = ImageLoadGauges(manager: manager, extra: [("webimage_downloads_active", { Double(downloader.activeDownloadCount) })])
/// Task { await gauges.run(every: .seconds(10)) }
/// ```
public struct ImageLoadGauges: Sendable {
    private let readings: [(gauge: Gauge, read: @Sendable () -> Double)]

    /// - Parameters:
    ///   - manager: whose caches are read (none when `nil`).
    ///   - memoryBudget: read for the budget gauges; by default the shared one managers use.
    ///   - extra: more gauges, each a label and how to read it.
    ///   - factory: the metrics backend; by default the one bootstrapped.
    public init(
        manager: ImageManager?, memoryBudget: MemoryBudget? = .shared,
        extra: [(label: String, read: @Sendable () -> Double)] = [], factory: any MetricsFactory = MetricsSystem.factory
    ) {
        var readings: [(String, @Sendable () -> Double)] = []
        if let memoryBudget {
            readings.append(("webimage_memory_budget_bytes", { Double(memoryBudget.inUse) }))
            readings.append(("webimage_memory_budget_waiting", { Double(memoryBudget.waiting) }))
        }
        if let memory = manager?.memoryCache {
            readings.append(("webimage_memory_cache_bytes", { Double(memory.totalCost) }))
            readings.append(("webimage_memory_cache_count", { Double(memory.count) }))
        }
        if let disk = manager?.diskCache {
            readings.append(("webimage_disk_cache_bytes", { Double(disk.totalSize) }))
            readings.append(("webimage_disk_cache_count", { Double(disk.count) }))
        }
        readings += extra.map { ($0.label, $0.read) }
        self.readings = readings.map { (Gauge(label: $0.0, factory: factory), $0.1) }
    }

    /// Records every gauge's current value once.
    public func sample() {
        for (gauge, read) in readings { gauge.record(read()) }
    }

    /// Samples every `interval` until the task is cancelled.
    public func run(every interval: Duration) async {
        while !Task.isCancelled {
            sample()
            try? await Task.sleep(for: interval)
        }
    }
}
