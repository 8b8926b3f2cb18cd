import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Warms the caches for images a user is about to need: SDWebImagePrefetcher.
///
/// Each URL is loaded through the manager (so coalescing, the failed-URL set and both
/// caches apply) with the prefetcher's options, at most ``maximumConcurrentLoads`` at a
/// time over all batches, at low priority by default so that loads someone is waiting
/// for go first. To fill only the disk cache, without decoding, pass
/// `[.lowPriority, .returnDataWithoutDecoding]`.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let summary = await prefetcher.prefetch(urls)    // PrefetchProgress: fetched, cached, failed
/// ```
public final class ImagePrefetcher: Sendable {
    public let manager: ImageManager
    public let maximumConcurrentLoads: Int
    public let options: ImageLoadOptions
    public let context: ImageLoadContext
    /// Serialises the bookkeeping; load results are delivered here.
    private let queue = DispatchQueue(label: "webimage.prefetcher")
    private let state = Locked(State())

    private struct State {
        var batches: [PrefetchBatch] = []
        var running = 0
    }

    public init(
        manager: ImageManager, maximumConcurrentLoads: Int = 3, options: ImageLoadOptions = [.lowPriority],
        context: ImageLoadContext = .init()
    ) {
        self.manager = manager
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.options = options
        self.context = context
    }

    /// Starts prefetching `urls`. `progress` is called after each URL ends and
    /// `completion` once when all have (both on a private serial queue).
    @discardableResult
    public func prefetch(
        _ urls: [URL], progress: (@Sendable (PrefetchProgress) -> Void)? = nil,
        completion: (@Sendable (PrefetchProgress) -> Void)? = nil
    ) -> PrefetchToken {
        let batch = PrefetchBatch(urls: urls, progress: progress, completion: completion)
        queue.async { [self] in
            batch.finishIfDone()  // an empty list is done at once
            state.withLock { $0.batches.append(batch) }
            pump()
        }
        return PrefetchToken { [self] in
            queue.async { [self] in
                for token in batch.cancel() { token.cancel() }
                state.withLock { $0.batches.removeAll { $0 === batch } }
            }
        }
    }

    /// Prefetches `urls` and returns the final counts; cancelling the calling task
    /// cancels the prefetch.
    public func prefetch(_ urls: [URL], progress: (@Sendable (PrefetchProgress) -> Void)? = nil) async -> PrefetchProgress {
        await withCancellableContinuation { resume in
            prefetch(urls, progress: progress, completion: resume)
        }
    }

    /// Cancels every batch.
    public func cancelAll() {
        queue.async { [self] in
            let batches = state.withLock { state in
                defer { state.batches.removeAll() }
                return state.batches
            }
            for batch in batches { for token in batch.cancel() { token.cancel() } }
        }
    }

    /// Starts loads while there are free slots and waiting URLs. On the queue.
    private func pump() {
        while let (batch, index) = nextLoad() {
            let request = ImageRequest(url: batch.urls[index], options: options, context: context)
            let token = manager.loadImage(with: request, delivery: .queue(queue), takesProgress: false) { [self] event in
                guard case .completed(let result) = event else { return }
                state.withLock { $0.running -= 1 }
                batch.ended(index, result)
                pump()
            }
            batch.started(index, token: token)
        }
    }

    private func nextLoad() -> (PrefetchBatch, Int)? {
        state.withLock { state in
            state.batches.removeAll { !$0.hasWaiting }  // their running loads still report to them
            guard state.running < maximumConcurrentLoads,
                let batch = state.batches.first(where: { $0.hasWaiting })
            else { return nil }
            state.running += 1
            return (batch, batch.takeNext())
        }
    }
}

/// Cancels one prefetch batch: waiting URLs are dropped and running loads cancelled;
/// the completion still comes, with the counts.
public final class PrefetchToken: Cancellable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() { onCancel() }
}
