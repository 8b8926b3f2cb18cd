import Foundation
import Testing

@testable import WebImageTransport

@Suite("Fetched revocation answers: kept until they expire, bounded in number, least recently used out first")
struct RevocationAnswerCacheTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    @Test("an answer is served until its expiry, and not after")
    func expiry() {
        var cache = RevocationAnswerCache(capacity: 4)
        cache.store(.bytes([1]), for: "a", until: start + 60, now: start)
        #expect(cache.answer(for: "a", now: start + 59) == .bytes([1]))
        #expect(cache.answer(for: "a", now: start + 60) == nil)
        #expect(cache.count == 0, "the expired answer is dropped as it is found")
    }

    @Test("an answer that has already expired is not kept")
    func alreadyExpired() {
        var cache = RevocationAnswerCache(capacity: 4)
        cache.store(.unreachable("refused"), for: "a", until: start, now: start)
        #expect(cache.count == 0)
    }

    @Test("past the capacity the expired go first, then the least recently used")
    func eviction() {
        var cache = RevocationAnswerCache(capacity: 2)
        cache.store(.bytes([1]), for: "a", until: start + 100, now: start)
        cache.store(.bytes([2]), for: "b", until: start + 100, now: start)
        _ = cache.answer(for: "a", now: start + 1)
        cache.store(.bytes([3]), for: "c", until: start + 100, now: start + 2)
        #expect(cache.answer(for: "b", now: start + 3) == nil, "b was used least recently")
        #expect(cache.answer(for: "a", now: start + 3) == .bytes([1]))
        #expect(cache.answer(for: "c", now: start + 3) == .bytes([3]))

        var expiring = RevocationAnswerCache(capacity: 2)
        expiring.store(.bytes([1]), for: "soon", until: start + 10, now: start)
        expiring.store(.bytes([2]), for: "late", until: start + 100, now: start)
        _ = expiring.answer(for: "soon", now: start + 5)
        expiring.store(.bytes([3]), for: "new", until: start + 100, now: start + 20)
        #expect(expiring.count == 2)
        #expect(expiring.answer(for: "late", now: start + 21) == .bytes([2]), "the expired one went, not the least recently used")
    }

    @Test("a capacity of zero keeps nothing")
    func zeroCapacity() {
        var cache = RevocationAnswerCache(capacity: 0)
        cache.store(.bytes([1]), for: "a", until: start + 60, now: start)
        #expect(cache.answer(for: "a", now: start) == nil)
    }

    @Test("an OCSP GET URL appends the request in percent-encoded base64 after one slash")
    func getURL() {
        let request: [UInt8] = [0xFB, 0xFF, 0xFE]  // base64 "+//+"
        #expect(RevocationFetchPlan.getURL(responder: "http://ocsp.example", request: request) == "http://ocsp.example/%2B%2F%2F%2B")
        #expect(RevocationFetchPlan.getURL(responder: "http://ocsp.example/a/", request: [0]) == "http://ocsp.example/a/AA%3D%3D")
    }
}
