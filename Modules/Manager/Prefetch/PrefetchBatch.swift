import Foundation
import WebImageCore

/// One call to ``ImagePrefetcher/prefetch(_:progress:completion:)``: its URLs, counts and
/// running loads. Touched only on the prefetcher's queue, except ``cancel()``.
final class PrefetchBatch: @unchecked Sendable {
    let urls: [URL]
    private let onProgress: (@Sendable (PrefetchProgress) -> Void)?
    private let onCompletion: (@Sendable (PrefetchProgress) -> Void)?
    // Below: only on the prefetcher's queue.
    private(set) var progress: PrefetchProgress
    private(set) var nextIndex = 0
    private(set) var isCancelled = false
    private var running: [Int: ImageLoadToken] = [:]
    private var reportedDone = false

    init(urls: [URL], progress: (@Sendable (PrefetchProgress) -> Void)?, completion: (@Sendable (PrefetchProgress) -> Void)?) {
        self.urls = urls
        self.progress = PrefetchProgress(total: urls.count)
        self.onProgress = progress
        self.onCompletion = completion
    }

    var hasWaiting: Bool { !isCancelled && nextIndex < urls.count }

    func takeNext() -> Int {
        defer { nextIndex += 1 }
        return nextIndex
    }

    /// Called on the queue right after the load starts; its end is delivered on the same
    /// queue, so it always comes after this.
    func started(_ index: Int, token: ImageLoadToken) {
        running[index] = token
    }

    func ended(_ index: Int, _ result: Result<ImageResponse, ImageLoadError>) {
        running[index] = nil
        switch result {
        case .success(let response):
            if [.memory, .disk, .stale].contains(response.source) { progress.skipped += 1 } else { progress.finished += 1 }
        case .failure(let error):
            if error.isCancelled { progress.cancelled += 1 } else { progress.failed += 1 }
        }
        onProgress?(progress)
        finishIfDone()
    }

    /// Stops the batch: waiting URLs count as cancelled now, running loads are cancelled
    /// (and count when their cancellation arrives). Returns their tokens.
    func cancel() -> [ImageLoadToken] {
        guard !isCancelled else { return [] }
        isCancelled = true
        progress.cancelled += urls.count - nextIndex
        nextIndex = urls.count
        defer { finishIfDone() }
        return Array(running.values)
    }

    func finishIfDone() {
        guard progress.isDone, !reportedDone else { return }
        reportedDone = true
        onCompletion?(progress)
    }
}
