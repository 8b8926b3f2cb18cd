import Dispatch
import Synchronization
import WebImageConcurrency
import WebImageCore

/// What every operation of one downloader shares.
///
/// The downloader and each of its operations hold it, and through it the queue and the
/// transport: a download that can still end runs on after the downloader is dropped,
/// and the last one to end lets go of everything.
final class DownloaderContext: Sendable {
    let transport: any Transporting
    /// The downloads under way or waiting, one per key, and their subscribers.
    let runs: CoalescedRuns<DownloadOperation, ReceivedBody, DownloadResult, DownloadError>
    var registry: any CallbackRegistering<DownloadKey, ReceivedBody, DownloadResult, DownloadError> { runs.registry }
    let queue: DownloadQueue
    let configuration: ImageDownloader.Configuration
    /// The configuration's monitor, then those added while running.
    let monitors: MonitorList<any DownloadEventMonitor>
    /// Set once the downloader is deinitialised: the suspension and the holds made through
    /// it can no longer be lifted.
    private let downloaderIsGone = Atomic<Bool>(false)

    init(
        transport: any Transporting,
        registry: any CallbackRegistering<DownloadKey, ReceivedBody, DownloadResult, DownloadError>,
        queue: DownloadQueue, configuration: ImageDownloader.Configuration, monitors: MonitorList<any DownloadEventMonitor>
    ) {
        self.transport = transport
        self.runs = CoalescedRuns(registry: registry)
        self.queue = queue
        self.configuration = configuration
        self.monitors = monitors
    }

    /// Tells every event monitor, each where it asked.
    func notify(_ event: @escaping @Sendable (any DownloadEventMonitor) -> Void) {
        monitors.emit(event)
    }

    /// The downloader is being deinitialised.
    func downloaderWentAway() {
        // Sequentially consistent with the load in `startsNoMore`: an operation that queues
        // as the downloader goes either sees this or is seen by the downloader's sweep.
        downloaderIsGone.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether a download waiting for a slot now would wait forever: the downloader is
    /// gone, and its queue is suspended or holds its starts with nobody left to resume it.
    var startsNoMore: Bool {
        downloaderIsGone.load(ordering: .sequentiallyConsistent) && (queue.isSuspended || queue.isHoldingStarts)
    }
}
