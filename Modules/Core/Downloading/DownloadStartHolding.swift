/// A downloader whose queue can hold back the start of new downloads while the work that
/// follows them is behind (backpressure); the downloads already running go on.
///
/// The manager holds its downloader back while loads wait for its memory budget: their
/// bodies wait in memory, and a body fetched then could only join them. WebImageOperations'
/// `ImageDownloader` is one.
///
/// Holds are counted, so that several holders (two managers sharing a downloader, say)
/// never release one another's; they are apart from ``DownloadQueueSuspending``'s
/// `suspend()` and `resume()`, which stay the application's own.
public protocol DownloadStartHolding: Sendable {
    /// Adds a hold: no waiting download starts until every hold is released. Safe from
    /// any thread.
    func holdStarts()
    /// Releases one hold taken with ``holdStarts()``; the last one lets waiting downloads
    /// start at once. Safe from any thread.
    func releaseStarts()
}
