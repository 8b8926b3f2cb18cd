/// A download's kept bytes between its attempts, and what becomes of them at its end.
struct PartialHold: Sendable {
    /// The bytes the next attempt asks to continue.
    var kept: PartialDownload?
    /// `kept` is still exactly what the download took from the store: a plain stop puts
    /// it back rather than losing what an earlier download kept.
    var isFromStore = false
    /// The first stop asked to keep what the download received.
    var keepsOnStop: Bool?

    /// What the download leaves in the store when it ends: nothing after a success; after
    /// a stop, what it received if the stop asked for that (else only what it took);
    /// after any other failure, whatever it holds.
    func leftBehind(succeeded: Bool, stopped: Bool) -> PartialDownload? {
        guard let kept, !succeeded else { return nil }
        if stopped, keepsOnStop != true, !isFromStore { return nil }
        return kept
    }

    mutating func apply(_ update: AttemptResume.Update) {
        switch update {
        case .unchanged: break
        case .replace(let partial):
            kept = partial
            isFromStore = false
        case .discard:
            kept = nil
            isFromStore = false
        }
    }
}
