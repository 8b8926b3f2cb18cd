import Synchronization
import WebImageConcurrency
import WebImageCore

/// Holds the downloader's new downloads back while loads wait for the memory budget
/// (``ImageManager/Configuration/holdsDownloadsWhileDecodesWait``).
///
/// A load waiting for the budget already holds its body in memory. Without the hold, a
/// burst of loads of large images downloads every body while the decodes go one or two at
/// a time, and the bodies waiting come to more than the budget bounds: 64 loads of a
/// 243 KB PNG that decodes to 244 MiB, under a 256 MiB budget, peaked 5% over it.
/// With it, the downloads under way when the first load began to wait finish, and the
/// next start once no load waits: the queue keeps its own order and the decodes always
/// have bodies ready.
///
/// It lives as long as its manager, and releases its hold when it goes, so a downloader
/// shared with other managers is never left held.
final class BudgetBackpressure: Sendable {
    /// Applies the budget's state to the downloader: read and applied under one lock, so
    /// that the last of several changes close together leaves the hold as the budget is.
    private final class Switch: Sendable {
        let budget: MemoryBudget
        let downloader: any DownloadStartHolding
        let holding = Locked<Bool>(false)

        init(budget: MemoryBudget, downloader: any DownloadStartHolding) {
            self.budget = budget
            self.downloader = downloader
        }

        func update() {
            holding.withLock { holding in
                let wanted = budget.waiting > 0
                guard wanted != holding else { return }
                holding = wanted
                if wanted { downloader.holdStarts() } else { downloader.releaseStarts() }
            }
        }

        func end() {
            holding.withLock { holding in
                if holding { downloader.releaseStarts() }
                holding = false
            }
        }
    }

    private let control: Switch
    private let observation: EventMonitorRegistration

    /// `nil` without a budget, with the option off, or when the downloader cannot hold its
    /// starts.
    init?(budget: MemoryBudget?, enabled: Bool, downloader: any ImageDownloading) {
        guard enabled, let budget, let holder = downloader as? any DownloadStartHolding else { return nil }
        let control = Switch(budget: budget, downloader: holder)
        self.control = control
        observation = budget.observeWaiters { control.update() }
        // Loads of another user of a shared budget may be waiting already.
        control.update()
    }

    deinit {
        observation.remove()
        control.end()
    }
}
