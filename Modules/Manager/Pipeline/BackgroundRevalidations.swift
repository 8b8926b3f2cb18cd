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
        start(stored.metadata, for: request, stages: stages) { metadata, disk in
            stages.writes.enqueue(.init(disk: disk, data: stored.data, metadata: metadata, key: request.dataKey))
        }
    }

    /// Starts revalidating the source on disk (held with `metadata`) that `variant` was
    /// made from, unless one is under way. A 304 refreshes the source's metadata and the
    /// variant's on disk, so the next load is answered fresh by the variant; a new body
    /// replaces the source, and the next load finds the variant out of date and makes it
    /// again.
    func revalidateSource(
        _ metadata: CachedResponseMetadata, of variant: FoundVariant, for request: ImageRequest, stages: LoadStages
    ) {
        start(metadata, for: request, stages: stages) { refreshed, disk in
            // The source's bytes are read now, in the background, not by the load.
            if let stored = stages.diskResponse(for: request), variant.matches(source: stored.metadata) {
                stages.writes.enqueue(.init(disk: disk, data: stored.data, metadata: refreshed, key: request.dataKey))
            }
            stages.refreshVariant(variant, metadata: refreshed)
        }
    }

    /// Revalidates what `metadata` describes for `request` behind the loads, unless the
    /// key's revalidation is under way; `notModified` stores what a 304 refreshed.
    private func start(
        _ metadata: CachedResponseMetadata, for request: ImageRequest, stages: LoadStages,
        notModified: @escaping @Sendable (CachedResponseMetadata, any DataCaching) -> Void
    ) {
        let key = request.dataKey
        guard let disk = stages.disk, running.withLock({ $0.insert(key).inserted }) else { return }
        let validators = TransportRequest.Validators(metadata)
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
                notModified(
                    caching.refreshed(metadata, by: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt),
                    disk)
            } else if caching.mayStore(download.response, for: request) {
                let metadata = caching.metadata(for: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt)
                stages.writes.enqueue(.init(disk: disk, data: download.data, metadata: metadata, key: key))
                stages.memory?.removeValue(forKey: request.imageKey)
            }
        }
    }
}
