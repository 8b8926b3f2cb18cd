import Foundation

/// The fetched answers one handshake's evaluation may read, and what it found missing.
/// Made for each evaluation of a transfer that may fetch (a fetch of a revocation answer
/// has none, so that it never fetches one itself). Loop thread only.
final class OnlineRevocationContext {
    let store: RevocationAnswerStore
    let now: Date
    /// An answer the evaluation needed and the cache lacks: the transport ends the
    /// handshake, fetches it, and connects again.
    var missing: RevocationFetchPlan?
    /// Why the leaf passed without an answer, when its sources could not be reached and
    /// the policy soft-fails.
    var softFailure: String?

    init(store: RevocationAnswerStore, now: Date) {
        self.store = store
        self.now = now
    }
}

/// One transport's fetched revocation answers, and the fetches under way with the
/// transfers waiting on each. Owned by the event loop; loop thread only.
final class RevocationAnswerStore {
    var cache: RevocationAnswerCache
    /// By the key of a fetch's first step: the transfers to start again once it ends.
    var waiting: [String: [TransferState]] = [:]

    init(capacity: Int) {
        cache = RevocationAnswerCache(capacity: capacity)
    }
}
