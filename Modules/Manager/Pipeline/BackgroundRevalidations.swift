import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// The revalidations `stale-while-revalidate` runs behind the loads that were answered
/// stale: at most one per disk cache key at a time, however many loads ask, each a
/// low-priority conditional download whose answer refreshes the disk cache (a 304 its
/// metadata, a 200 its bytes, and then the decoded images in memory are dropped so the
/// next load decodes the new bytes).
final class BackgroundRevalidations: Sendable {
    private let running = Locked<Set<CacheKey>>([])

    /// Starts revalidating `stored`, the entry for `request`, unless one is under way.
    func revalidate(_ stored: CachedResponse, for request: ImageRequest, stages: LoadStages) {
        let key = request.dataKey
        guard let disk = stages.disk, running.withLock({ $0.insert(key).inserted }) else { return }
        let validators = TransportRequest.Validators(stored.metadata)
        let conditional = validators.etag != nil || validators.lastModified != nil
        let downloadRequest = request.downloadRequest(validators: conditional ? validators : nil, extraOptions: [.lowPriority])
        // Not the load's task: the load has been answered, and its cancellation must not
        // stop the refresh.
        Task.detached(priority: .low) { [self] in
            defer { _ = running.withLock { $0.remove(key) } }
            let requestedAt = Date()
            guard let download = try? await stages.downloader.download(downloadRequest) else { return }
            let caching = stages.caching
            let receivedAt = Date()
            if download.isNotModified {
                let metadata = caching.refreshed(
                    stored.metadata, by: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt)
                stages.writes.enqueue(.init(disk: disk, data: stored.data, metadata: metadata, key: key))
            } else if caching.mayStore(download.response, for: request) {
                let metadata = caching.metadata(for: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt)
                stages.writes.enqueue(.init(disk: disk, data: download.data, metadata: metadata, key: key))
                stages.memory?.removeValue(forKey: request.imageKey)
            }
        }
    }
}
