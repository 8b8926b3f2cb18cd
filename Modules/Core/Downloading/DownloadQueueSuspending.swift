/// A downloader whose queue can stop starting downloads for a while (the downloads
/// already running go on): what the manager needs to pause the queue while the network
/// is unreachable. WebImageOperations' `ImageDownloader` is one.
public protocol DownloadQueueSuspending: Sendable {
    /// Stops starting downloads; those running go on. Safe from any thread.
    func suspend()
    /// Starts the waiting downloads again. Safe from any thread.
    func resume()
}
