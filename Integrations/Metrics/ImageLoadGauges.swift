import Metrics
import WebImageConcurrency
import WebImageCore
import WebImageManager
import WebImageOperations
import WebImageResources

/// The levels behind the loads, as swift-metrics gauges, read when ``sample()`` runs (or
/// every interval with ``run(every:)``):
///
/// | gauge | what |
/// |---|---|
/// | `webimage_loads_active` | the manager's loads under way (callers sharing a load count once) |
/// | `webimage_downloads_running`, `webimage_downloads_queued` | downloads holding a slot of the manager's downloader, and waiting for one (when it is an `ImageDownloader`) |
/// | `webimage_pool_queue_depth` | jobs waiting for a thread of the worker pool |
/// | `webimage_memory_budget_bytes` | bytes of pixels reserved for decodes now: the bytes in flight |
/// | `webimage_memory_budget_waiting` | loads waiting for the budget |
/// | `webimage_memory_cache_bytes`, `webimage_memory_cache_count` | the memory cache's cost and entries |
/// | `webimage_disk_cache_bytes`, `webimage_disk_cache_count` | the disk cache's size and entries |
/// | any of `extra` | a label and a reading of your own |
///
/// ```swift
/// let gauges = ImageLoadGauges(manager: manager, extra: [("app_thumbnails_queued", { Double(thumbnails.queued) })])
/// Task { await gauges.run(every: .seconds(10)) }
/// ```
public struct ImageLoadGauges: Sendable {
    private let readings: [(gauge: Gauge, read: @Sendable () -> Double)]

    /// - Parameters:
    ///   - manager: whose caches are read (none when `nil`).
    ///   - memoryBudget: read for the budget gauges; by default the shared one managers use.
    ///   - workerPool: read for the pool's queue depth; by default the shared one managers use.
    ///   - extra: more gauges, each a label and how to read it.
    ///   - factory: the metrics backend; by default the one bootstrapped.
    public init(
        manager: ImageManager?, memoryBudget: MemoryBudget? = .shared, workerPool: WorkerPool? = .shared,
        extra: [(label: String, read: @Sendable () -> Double)] = [], factory: any MetricsFactory = MetricsSystem.factory
    ) {
        var readings: [(String, @Sendable () -> Double)] = []
        if let manager {
            readings.append(("webimage_loads_active", { Double(manager.activeLoadCount) }))
        }
        if let queue = (manager?.downloader as? ImageDownloader)?.queue {
            readings.append(("webimage_downloads_running", { Double(queue.runningCount) }))
            readings.append(("webimage_downloads_queued", { Double(queue.pendingCount) }))
        }
        if let workerPool {
            readings.append(("webimage_pool_queue_depth", { Double(workerPool.queuedJobCount) }))
        }
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
