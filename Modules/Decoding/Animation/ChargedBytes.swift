import WebImageCore

/// The bytes one holder (a frame composition, a frame reader) has charged to a
/// ``MemoryCharging`` budget, all given back when the holder lets go of it: whichever way
/// a walk or a buffer ends, its charge ends with it.
///
/// Without a budget every charge succeeds and nothing is counted. Not `Sendable`: its
/// holder is used by one thread at a time.
final class ChargedBytes {
    private let budget: (any MemoryCharging)?
    /// The bytes charged and not yet refunded.
    private(set) var bytes = 0

    init(to budget: (any MemoryCharging)?) {
        self.budget = budget
    }

    /// Counts `count` bytes the holder cannot do without, fitting or not.
    func hold(_ count: Int) {
        guard let budget, count > 0 else { return }
        budget.chargeHeld(count)
        bytes += count
    }

    /// Counts `count` bytes the holder only keeps to go faster, when the budget has room;
    /// `false` means do not keep them.
    func keep(_ count: Int) -> Bool {
        guard let budget, count > 0 else { return true }
        guard budget.chargeKept(count) else { return false }
        bytes += count
        return true
    }

    /// Gives back `count` bytes charged before.
    func refund(_ count: Int) {
        guard let budget, count > 0 else { return }
        precondition(count <= bytes, "refunded more bytes than were charged")
        bytes -= count
        budget.refund(count)
    }

    deinit {
        if let budget, bytes > 0 { budget.refund(bytes) }
    }
}
