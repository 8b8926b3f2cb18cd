import Foundation
import Synchronization
import WebImageTestServer

@testable import WebImageConcurrency
@testable import WebImageCore

/// A loopback server for one test, shut down when the test's scope ends.
func withServer<R>(
    _ configuration: LoopbackServer.Configuration = .init(),
    _ body: (LoopbackServer) async throws -> R
) async throws -> R {
    try await LoopbackServer.withServer(configuration, body)
}

/// Counts the downloads a downloader queued and finished, to prove none is left behind.
final class LifecycleMonitor: DownloadEventMonitor {
    private let counts = Locked((queued: 0, coalesced: 0, finished: 0, stopped: 0, started: 0))
    /// Waiting for every queued download to finish; touched on the monitor's queue only.
    private let finishWaiters = Locked<[CheckedContinuation<Void, Never>]>([])

    func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) { counts.withLock { $0.queued += 1 } }
    func download(_ key: DownloadKey, didCoalesce priority: DownloadPriority, subscribers: Int) { counts.withLock { $0.coalesced += 1 } }
    func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int) { counts.withLock { $0.started += 1 } }
    func downloadDidStop(_ key: DownloadKey) { counts.withLock { $0.stopped += 1 } }
    func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
        let allFinished = counts.withLock { counts in
            counts.finished += 1
            return counts.finished == counts.queued
        }
        guard allFinished else { return }
        for waiter in finishWaiters.withLock({ waiters in
            defer { waiters.removeAll() }
            return waiters
        }) { waiter.resume() }
    }

    /// Returns once every download queued so far has finished: a download tells the
    /// monitor after it gave back its slot and left the downloader.
    func allFinished() async {
        await withCheckedContinuation { continuation in
            queue.async {
                if self.counts.withLock({ $0.finished == $0.queued }) {
                    continuation.resume()
                } else {
                    self.finishWaiters.withLock { $0.append(continuation) }
                }
            }
        }
    }

    /// The counts once every event sent so far has arrived.
    func settled() async -> (queued: Int, coalesced: Int, finished: Int, stopped: Int, started: Int) {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        return counts.withLock { $0 }
    }
}
