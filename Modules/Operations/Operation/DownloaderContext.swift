import Dispatch
import WebImageConcurrency
import WebImageCore

/// What every operation of one downloader shares.
struct DownloaderContext: Sendable {
    let transport: any Transporting
    let registry: any CallbackRegistering<DownloadKey, DecodedImage, DownloadResult, DownloadError>
    let queue: DownloadQueue
    let configuration: ImageDownloader.Configuration
    /// The configuration's monitor, then those added while running.
    let monitors: MonitorList<any DownloadEventMonitor>

    /// Tells every event monitor, each where it asked.
    func notify(_ event: @escaping @Sendable (any DownloadEventMonitor) -> Void) {
        monitors.emit(event)
    }
}
