import Dispatch
import WebImageCore

/// What every operation of one downloader shares.
struct DownloaderContext: Sendable {
    let transport: any Transporting
    let registry: any CallbackRegistering<DownloadKey, DecodedImage, DownloadResult, DownloadError>
    let queue: DownloadQueue
    let configuration: ImageDownloader.Configuration

    /// Tells the event monitor, on its own queue.
    func notify(_ event: @escaping @Sendable (any DownloadEventMonitor) -> Void) {
        guard let monitor = configuration.eventMonitor else { return }
        monitor.queue.async { event(monitor) }
    }
}
