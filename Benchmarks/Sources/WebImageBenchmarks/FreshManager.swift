import Foundation
import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// A manager whose caches have never seen the URLs: a new `ImageManager` (its own memory
/// cache, transport and connections) over a new, empty cache directory for every run of
/// the cold case. The honest "cold": a query string per round would leave the earlier
/// rounds' images filling the memory cache and its evictions in the timing.
final class FreshManager {
    /// Holds every run's cache directory, all removed at exit, none before: deleting a
    /// run's 1000 files just before the next run creates 1000 more made the cache's
    /// writes take 1.5 to 2.5 times the CPU (perf's samples on its queue's thread) on ext4
    /// without a journal, as on these machines, which checks the recently freed inodes it
    /// passes when it allocates one. About 20 MB per run.
    let root: URL
    /// Entries the disk cache must hold once the previous run's writes are done.
    let expectedEntries: Int
    /// False: managers with no disk cache (to show what the disk costs a cold load).
    let usesDisk: Bool
    /// Whether the manager posts the seeds' notifications (``WebImageConfiguration/postsNotifications``).
    let postsNotifications: Bool
    /// False: a memory cache that keeps nothing (`countLimit` 0), so each image is freed
    /// once its caller drops it: the pipeline on the CPU floor's own terms.
    let keepsImages: Bool
    /// False: loads on Swift's cooperative pool (`executor = nil`) instead of the
    /// manager's default executor.
    let usesOwnExecutor: Bool
    private(set) var manager: ImageManager?
    private var runs = 0

    /// Set by the first instance for the `atexit` callback, which cannot capture.
    nonisolated(unsafe) static var roots: [String] = []

    init(
        name: String, expectedEntries: Int, usesDisk: Bool = true, keepsImages: Bool = true, usesOwnExecutor: Bool = true,
        postsNotifications: Bool = false
    ) throws {
        self.postsNotifications = postsNotifications
        self.usesOwnExecutor = usesOwnExecutor
        self.keepsImages = keepsImages
        root = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(name)-\(getpid())")
        self.expectedEntries = expectedEntries
        self.usesDisk = usesDisk
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if Self.roots.isEmpty {
            atexit { for root in FreshManager.roots { try? FileManager.default.removeItem(atPath: root) } }
        }
        Self.roots.append(root.path)
    }

    /// Retires the previous manager, then makes the next one with the default
    /// configuration but for its cache directory. Untimed (a `prepare` step).
    func renew() throws {
        try retire()
        runs += 1
        let next = root.appendingPathComponent("run-\(runs)", isDirectory: true)
        var configuration = WebImageConfiguration()
        configuration.cacheDirectory = usesDisk ? next : nil
        if !usesOwnExecutor { configuration.manager.executor = nil }
        if !keepsImages { configuration.memoryCache.countLimit = 0 }
        configuration.postsNotifications = postsNotifications
        manager = ImageManager(configuration: configuration)
    }

    /// Waits for the previous run's disk writes, which the manager does off the load's
    /// path (so they may still be under way when the last load has returned), and checks
    /// that every image was written; then drops the manager (its memory cache with it),
    /// so one run's writes never fall into the next run's time. The directory stays (see
    /// ``root``).
    func retire() throws {
        guard let manager else { return }
        if let disk = manager.diskCache {
            let deadline = ContinuousClock.now + .seconds(30)
            while disk.count < expectedEntries, ContinuousClock.now < deadline {
                usleep(1000)
            }
            guard disk.count == expectedEntries else {
                throw Baseline.Failure(description: "manager: \(disk.count) of \(expectedEntries) images written to disk")
            }
            // The count rises when a write has finished; the serial queue drains the rest
            // of the cache's bookkeeping.
            (disk as? DiskCache)?.queue.sync {}
        }
        self.manager = nil
    }
}
