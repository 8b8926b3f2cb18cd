import Synchronization
import WebImageCore

/// Pauses the downloader's queue while the network is unreachable and starts it again
/// when the network is back (``NetworkRecovery/suspendsQueueWhileUnreachable``). It lives
/// as long as its manager; its observation ends with it.
final class NetworkQueueSuspension: Sendable {
    /// Resumes only a suspension of its own: a queue paused by its owner before the
    /// network ever went down stays paused.
    private final class Switch: Sendable {
        let queue: any DownloadQueueSuspending
        let suspended = Atomic<Bool>(false)

        init(queue: any DownloadQueueSuspending) { self.queue = queue }

        func apply(_ status: NetworkReachabilityStatus) {
            if status == .unreachable {
                if !suspended.exchange(true, ordering: .relaxed) { queue.suspend() }
            } else if suspended.exchange(false, ordering: .relaxed) {
                // On `unknown` too: a queue is never left paused on a guess.
                queue.resume()
            }
        }
    }

    private let observation: ReachabilityObservation

    /// `nil` unless the recovery asks for it and the downloader can be suspended.
    init?(recovery: NetworkRecovery?, downloader: any ImageDownloading) {
        guard let recovery, recovery.suspendsQueueWhileUnreachable, let queue = downloader as? any DownloadQueueSuspending else {
            return nil
        }
        let control = Switch(queue: queue)
        observation = recovery.observer.observe(delivery: .immediate) { control.apply($0) }
    }

    deinit { observation.cancel() }
}
