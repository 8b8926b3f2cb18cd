import WebImageCore

/// The async forms of ``ImageDownloading``.
extension ImageDownloading {
    /// Downloads `request` and returns the body. Cancelling the calling task cancels this
    /// subscriber (and the transfer, when it was the last one).
    public func download(_ request: DownloadRequest) async throws(DownloadError) -> DownloadResult {
        let result = await events(for: request).result()
        return try result.get()
    }

    /// The events of one download as an async sequence: progress and partial images as
    /// they come, then the result, then the end. A slow reader gets the newest progress
    /// and the newest partial image, then the result: only what a newer event of the same
    /// kind replaced is skipped. Ending the iteration early, or cancelling its task,
    /// cancels the subscriber.
    public func events(for request: DownloadRequest) -> AsyncStream<DownloadEvent> {
        .subscription { handler in download(request, delivery: .immediate, handler: handler) }
    }
}

extension AsyncStream {
    /// The completion at the end of a download's events (cancelled when the stream ended
    /// without one, which only cancellation does).
    func result() async -> Result<DownloadResult, DownloadError> where Element == DownloadEvent {
        // A cancelled task ends the iteration and cancels the subscriber.
        for await event in self {
            if case .completed(let result) = event { return result }
        }
        return .failure(.cancelled)
    }
}
