import WebImageCore

/// Performs the attempts of a download in place of the downloader's own transfer
/// (SDWebImage's `operationClass`): an app's own way of fetching some URLs (from a
/// bundle, another protocol, a test double of a server), a wrapper that watches or
/// rewrites each attempt, a transport chosen per host.
///
/// The downloader keeps everything around the attempt: the queue slot it runs in, the
/// request modifier, coalescing, retries, resuming and the subscribers' events. It calls
/// ``performAttempt(_:number:key:transport:delegate:)`` once per attempt, holding a queue
/// slot, with the request as it would send it. The performer reports to `delegate` as a
/// transport does: the response, the body, then exactly one completion, from any thread;
/// and it honours the returned task's cancel, pause and resume. Forwarding to
/// `transport.start(request, delegate: delegate)` is the downloader's own behaviour.
///
/// Set one in `ImageDownloader.Configuration.attemptPerformer`.
public protocol DownloadAttemptPerforming: Sendable {
    /// Starts attempt `number` (from 1) of the download `key` of `request`, reporting to
    /// `delegate`.
    ///
    /// - Returns: the attempt's task, through which the downloader cancels, pauses and
    ///   resumes it.
    func performAttempt(
        _ request: TransportRequest, number: Int, key: DownloadKey, transport: any Transporting, delegate: any TransferDelegate
    ) -> TransferTask
}
