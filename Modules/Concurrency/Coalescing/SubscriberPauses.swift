/// The rule for pausing a download that several subscribers share: it is paused while
/// every subscriber still present has paused it, and resumes as soon as one of them
/// resumes, or a subscriber that has not paused joins. So one load pausing never stops
/// the bytes another load of the same resource is waiting for, and a load that leaves
/// (cancelled) no longer holds the others' pause back.
///
/// Pure bookkeeping of subscription ids. ``CoalescedRuns`` keeps one per run, at both
/// levels that use it: per download (the subscribers of a `DownloadKey`) and per load run
/// (the loads of an `ImageLoadKey`, which together are one subscriber of the download).
/// So a download pauses while every load still present, at either level, has paused.
package struct SubscriberPauses: Equatable, Sendable {
    package init() {}

    private var present: Set<UInt64> = []
    private var paused: Set<UInt64> = []

    /// Whether the download is to be paused now. Unchanged when the last subscriber
    /// leaves: the download stops then, and resuming it first would only waste bytes.
    package private(set) var wantsPause = false

    package mutating func join(_ id: UInt64) {
        present.insert(id)
        decide()
    }

    package mutating func leave(_ id: UInt64) {
        present.remove(id)
        paused.remove(id)
        decide()
    }

    /// A subscriber not (or no longer) present is ignored: its pause counts for nothing.
    package mutating func set(_ id: UInt64, paused isPaused: Bool) {
        guard present.contains(id) else { return }
        if isPaused { paused.insert(id) } else { paused.remove(id) }
        decide()
    }

    private mutating func decide() {
        guard !present.isEmpty else { return }
        wantsPause = paused.count == present.count
    }
}
