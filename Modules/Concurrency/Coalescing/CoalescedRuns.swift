import Synchronization
import WebImageCore

/// Work that every subscriber of one key shares: a download behind every subscriber of
/// its `DownloadKey`, a manager's pipeline run behind every load of its `ImageLoadKey`.
/// ``CoalescedRuns`` decides when it starts, pauses, moves up and stops; the run does
/// the work and ends through ``CoalescedRuns/finish(_:generation:with:)``.
package protocol CoalescedRun: AnyObject, Sendable {
    associatedtype Key: Hashable & Sendable

    var key: Key { get }

    /// Starts the work for the registry's run `generation` of the key: the run publishes
    /// and finishes with that generation, so a newer run of the key never hears from it.
    func start(generation: UInt64)

    /// Every subscriber left before the end: stop, keeping what was received when the
    /// last one asked.
    func abandoned(keepingResumableData: Bool)

    /// The subscribers' pause rule (``SubscriberPauses``) changed its answer. Called under
    /// the run's lock, so racing changes arrive in the order they were decided.
    func pauseChanged(to paused: Bool)

    /// A subscriber of a higher priority than any before joined, or raised its own.
    func priorityRaised(to priority: DownloadPriority)
}

/// The one coalescing mechanism of the library: subscribers of a key join one run of
/// the work, leave it, pause it and raise its priority; the run ends when the last
/// subscriber leaves; progress, partial results and the single result fan out through
/// the registry (`CallbackRegistering`), which knows the subscribers and keeps each run
/// with them: the registry's table is the level's one map from key to running work.
///
/// The downloader's downloads and the manager's loads are both runs of it, so both
/// levels share one rule for each of these: a download or load pauses while every
/// subscriber still present has paused (``SubscriberPauses``), runs at the highest
/// priority any subscriber asked, and keeps its received bytes on abandonment only when
/// its last subscriber asked.
package final class CoalescedRuns<Run: CoalescedRun, Partial: Sendable, Success: Sendable, Failure: Error>: Sendable {
    package typealias Registry = any CallbackRegistering<Run.Key, Partial, Success, Failure>
    package typealias Event = SubscriberEvent<Partial, Success, Failure>

    /// One subscriber's place in a run: what its token's cancel, pause and priority act on.
    /// It holds the run weakly, so a token kept after the run ended holds none of it.
    package struct Membership: Sendable {
        package let token: SubscriptionToken
        package let isFirst: Bool
        /// The registry's number of the run joined.
        package let generation: UInt64
        /// The run joined; `nil` once it ended.
        private(set) weak var entry: Entry?

        /// The run this subscriber shares.
        package var run: Run? { entry?.run }
    }

    /// A run and what its subscribers decided about it: what the registry keeps with the
    /// run's subscribers.
    final class Entry: Sendable {
        let run: Run
        let control: Locked<Control>

        init(run: Run, priority: DownloadPriority) {
            self.run = run
            self.control = Locked(Control(priority: priority))
        }

        /// Applies `change` to the pause rule; the run hears of a change of answer under
        /// the lock.
        func changePause(_ change: (inout SubscriberPauses) -> Void) {
            control.withLock { control in
                let wasPaused = control.pauses.wantsPause
                change(&control.pauses)
                guard control.pauses.wantsPause != wasPaused else { return }
                run.pauseChanged(to: control.pauses.wantsPause)
            }
        }

        func raisePriority(to priority: DownloadPriority) {
            let raised = control.withLock { control -> Bool in
                guard priority > control.priority else { return false }
                control.priority = priority
                return true
            }
            if raised { run.priorityRaised(to: priority) }
        }
    }

    struct Control {
        var pauses = SubscriberPauses()
        /// The highest priority any subscriber asked: the run's.
        var priority: DownloadPriority
        /// The last subscriber to leave asked to keep the received bytes.
        var leaverKeepsResumableData = false
    }

    package let registry: Registry
    /// Who waits for there to be no run (a shutdown), by number.
    private let emptyWaiters = Locked<(next: UInt64, waiting: [UInt64: CheckedContinuation<Void, Never>])>((0, [:]))

    package init(registry: Registry) {
        self.registry = registry
    }

    /// Adds a subscriber to `key`'s run, making the run with `makeRun` when there is none.
    /// The run does not start yet: the caller hands out its token first (so a pause or a
    /// cancel made from the first event finds it), then calls ``begin(_:priority:)``.
    ///
    /// `makeRun` is called for the key's first subscriber only, while the registry holds
    /// its lock (so it only makes the run): a subscriber that joins a run under way costs
    /// no run of its own.
    package func join(
        _ key: Run.Key, priority: DownloadPriority, delivery: CallbackDelivery, makeRun: () -> Run,
        handler: @escaping @Sendable (Event) -> Void
    ) -> Membership {
        let subscription = registry.add(
            to: key, delivery: delivery, makeRun: { Entry(run: makeRun(), priority: priority) },
            whenAbandoned: { [self] entry in (entry as? Entry).map(abandon) }, handler: handler)
        let entry = subscription.run as? Entry
        entry?.changePause { $0.join(subscription.token.id) }
        return Membership(token: subscription.token, isFirst: subscription.isFirst, generation: subscription.generation, entry: entry)
    }

    /// Starts the run of a first subscriber; moves a joined run up to the newcomer's
    /// `priority` when that is higher.
    package func begin(_ membership: Membership, priority: DownloadPriority) {
        guard let entry = membership.entry else { return }
        if membership.isFirst {
            entry.run.start(generation: membership.generation)
        } else {
            entry.raisePriority(to: priority)
        }
    }

    /// Removes the subscriber, which completes with `failure`; when it was the last, the
    /// run is abandoned, keeping its received bytes when `keepingResumableData`.
    ///
    /// - Returns: `false` when the subscriber had already left or had its result.
    @discardableResult
    package func leave(_ membership: Membership, keepingResumableData: Bool, failure: Failure) -> Bool {
        // Said before the removal, whose abandonment (if this is the last subscriber)
        // reads it.
        membership.entry?.control.withLock { $0.leaverKeepsResumableData = keepingResumableData }
        guard registry.remove(membership.token, failure: failure) else { return false }
        membership.entry?.changePause { $0.leave(membership.token.id) }
        return true
    }

    /// The subscriber paused (or resumed) its share of the run.
    package func setPaused(_ membership: Membership, _ paused: Bool) {
        membership.entry?.changePause { $0.set(membership.token.id, paused: paused) }
    }

    /// The subscriber raised its priority: the run moves up when that is its highest.
    package func raisePriority(_ membership: Membership, to priority: DownloadPriority) {
        membership.entry?.raisePriority(to: priority)
    }

    /// The run's priority now: the highest any subscriber asked.
    package func priority(of run: Run) -> DownloadPriority? {
        entry(for: run.key).flatMap { $0.run === run ? $0.control.withLock(\.priority) : nil }
    }

    /// Ends `run`: hands `result` to the subscribers of its `generation`, which the
    /// registry then forgets with the run.
    @discardableResult
    package func finish(_ run: Run, generation: UInt64, with result: Result<Success, Failure>) -> Int {
        let completed = registry.finish(run.key, generation: generation, with: result)
        resumeEmptyWaiters()
        return completed
    }

    /// The key's run now, if any.
    package subscript(key: Run.Key) -> Run? {
        entry(for: key)?.run
    }

    /// How many runs are under way now.
    package var count: Int { registry.keyCount }

    /// Every run under way now.
    package var all: [Run] { registry.runs.compactMap { ($0 as? Entry)?.run } }

    /// Returns once no run is under way (at once when none is), or once the task is
    /// cancelled.
    package func whenEmpty() async {
        let id = emptyWaiters.withLock { waiters in
            defer { waiters.next += 1 }
            return waiters.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The registry is asked under the waiters' lock, which a run's end takes
                // after the registry forgot it: a run ending meanwhile either sees this
                // waiter or ended before the question.
                let resumeNow = emptyWaiters.withLock { waiters in
                    guard registry.keyCount > 0, !Task.isCancelled else { return true }
                    waiters.waiting[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            emptyWaiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }

    private func entry(for key: Run.Key) -> Entry? {
        registry.run(for: key) as? Entry
    }

    /// A run ended or was abandoned: resumes the waiters for no run when none is left.
    private func resumeEmptyWaiters() {
        let waiting = emptyWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            guard !waiters.waiting.isEmpty, registry.keyCount == 0 else { return [] }
            defer { waiters.waiting = [:] }
            return Array(waiters.waiting.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    private func abandon(_ entry: Entry) {
        resumeEmptyWaiters()
        entry.run.abandoned(keepingResumableData: entry.control.withLock(\.leaverKeepsResumableData))
    }
}
