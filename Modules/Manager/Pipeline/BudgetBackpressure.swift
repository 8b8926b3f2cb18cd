import Synchronization
import WebImageConcurrency
import WebImageCore
import WebImageResources

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
    /// Applies the budget's state to the downloader. One thread applies at a time, outside
    /// the lock, and reads the budget again after each change it made: a thread that finds
    /// another applying marks the state as changed and leaves. So the last change leaves
    /// the hold as the budget is, and starting the queue's downloads (which may run a
    /// failed download's handlers on this thread, and they may release budget bytes and
    /// come back here) never happens under the lock.
    private final class Switch: Sendable {
        private struct State {
            var holding = false
            var applying = false
            var changed = false
            var ended = false
        }

        let budget: MemoryBudget
        let downloader: any DownloadStartHolding
        private let state = Locked(State())

        init(budget: MemoryBudget, downloader: any DownloadStartHolding) {
            self.budget = budget
            self.downloader = downloader
        }

        func update() {
            let applies = state.withLock { state -> Bool in
                guard !state.applying else {
                    state.changed = true
                    return false
                }
                state.applying = true
                return true
            }
            guard applies else { return }
            while true {
                let change = state.withLock { state -> Bool? in
                    state.changed = false
                    let wanted = !state.ended && budget.waiting > 0
                    guard wanted != state.holding else { return nil }
                    state.holding = wanted
                    return wanted
                }
                if let change {
                    if change { downloader.holdStarts() } else { downloader.releaseStarts() }
                }
                let again = state.withLock { state -> Bool in
                    if state.changed { return true }
                    state.applying = false
                    return false
                }
                guard again else { return }
            }
        }

        /// Releases the hold for good (the manager is going away).
        func end() {
            state.withLock { $0.ended = true }
            update()
        }
    }

    private let control: Switch
    private let observation: EventMonitorRegistration

    /// `nil` without a budget, with the option off, or when the downloader cannot hold its
    /// starts (is not `DownloadStartHolding`).
    init?(budget: MemoryBudget?, enabled: Bool, downloader: any Sendable) {
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
