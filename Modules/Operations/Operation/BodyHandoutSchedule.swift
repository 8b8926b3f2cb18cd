/// When a progressive download hands its subscribers the body received so far
/// (``ReceivedBody``): once it has grown by a quarter since the last time, and by at least
/// ``minimumStep``.
///
/// Each hand-out is a snapshot of the body, which the download's next append copies
/// while a subscriber still holds it. Growing by a factor between hand-outs keeps all
/// those copies within a few times the body, however small the pieces the network
/// delivers; the step keeps a small body from being handed out at every piece.
struct BodyHandoutSchedule: Sendable {
    static let minimumStep = 4 << 10

    /// The body size at which the next hand-out is due.
    private(set) var next = Self.minimumStep

    /// Whether a body of `size` bytes is handed out now; if so, the next one is due after
    /// the growth above.
    mutating func isDue(size: Int) -> Bool {
        guard size >= next else { return false }
        next = size + max(Self.minimumStep, size / 4)
        return true
    }
}
