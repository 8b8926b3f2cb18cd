import WebImageCore

/// The downloader a manager with ``NetworkRecovery`` uses: the configured one, with each
/// download that failed because the network was down waiting for it and started again
/// (``RecoveringDownload``).
struct NetworkRecoveringDownloader: ImageDownloading {
    let base: any ImageDownloading
    let recovery: NetworkRecovery
    /// The clock the waits' bound runs on.
    let clock: any Clock<Duration>

    func download(_ request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void)
        -> DownloadToken
    {
        download(request, delivery: delivery, tokenReady: { _ in }, handler: handler)
    }

    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        RecoveringDownload(request: request, delivery: delivery, handler: handler, base: base, recovery: recovery, clock: clock)
            .start(tokenReady: tokenReady)
    }
}

extension ImageManager {
    /// `downloader`, made to wait for the network when the configuration asks for it.
    func recovering(_ downloader: any ImageDownloading) -> any ImageDownloading {
        guard let recovery = configuration.networkRecovery else { return downloader }
        return NetworkRecoveringDownloader(base: downloader, recovery: recovery, clock: configuration.clock)
    }
}
