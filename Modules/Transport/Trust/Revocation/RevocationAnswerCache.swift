import Foundation

/// The revocation answers a transport fetched (see `OnlineRevocation`), by what was
/// asked: the OCSP request's URL (which names the responder and the certificate) or the
/// list's URL. Each is kept until it expires (the answer's `nextUpdate`, or the policy's
/// failure lifetime for an unreachable responder or an answer that did not verify); past
/// ``capacity`` the expired go first, then the least recently used. Pure logic: the clock
/// is the caller's `now`.
///
/// The bytes are checked again at each handshake that reads them, with that handshake's
/// certificate and issuer: the cache decides only what is asked again, never what is
/// believed.
struct RevocationAnswerCache {
    enum Answer: Equatable {
        /// What the responder or distribution point sent.
        case bytes([UInt8])
        /// It could not be reached, or answered with an HTTP error: why.
        case unreachable(String)
    }

    private struct Entry {
        var answer: Answer
        var expires: Date
        var lastUse: UInt64
    }

    /// At most this many answers are kept; `0` keeps none (every handshake that needs an
    /// answer then fails, since the fetched one is gone before the retry).
    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var uses: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The answer for `key` while it is current; an expired one is dropped.
    mutating func answer(for key: String, now: Date) -> Answer? {
        guard let entry = entries[key] else { return nil }
        guard entry.expires > now else {
            entries[key] = nil
            return nil
        }
        uses &+= 1
        entries[key]?.lastUse = uses
        return entry.answer
    }

    /// Keeps `answer` for `key` until `expires` (not at all when that has passed).
    mutating func store(_ answer: Answer, for key: String, until expires: Date, now: Date) {
        guard capacity > 0, expires > now else { return }
        uses &+= 1
        entries[key] = Entry(answer: answer, expires: expires, lastUse: uses)
        guard entries.count > capacity else { return }
        entries = entries.filter { $0.value.expires > now }
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
    }
}
