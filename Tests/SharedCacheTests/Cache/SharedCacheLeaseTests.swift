import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageSharedCache

@Suite("Shared cache: fleet-wide leases", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"), .timeLimit(.minutes(1)))
struct SharedCacheLeaseTests {
    static let body = Data(repeating: 7, count: 2000)

    @Test("the first member to miss takes the lease; another waits and gets the value once it is stored")
    func waitersGetTheValue() async throws {
        try await withNodes { nodes in
            let first = try nodes.cache()
            let second = try nodes.cache()
            guard case .miss(leased: true) = await first.lookup(forKey: "u", coalescing: true) else {
                return #expect(Bool(false), "no lease")
            }
            let waiting = Task { await second.lookup(forKey: "u", coalescing: true) }
            await second.waitForLeaseWaits(1)
            try await first.store(Self.body, metadata: .init(), forKey: "u")
            let started = ContinuousClock.now
            guard case .hit(let entry) = await waiting.value else { return #expect(Bool(false), "the waiter did not get the value") }
            #expect(entry.data == Self.body)
            #expect(ContinuousClock.now - started < .seconds(10), "at once, not after the 30 s lease")
            // The lease is gone with the store.
            #expect(await first.client.send(RedisCommand("EXISTS", first.leaseKey("u")), to: 0) == .success(.integer(0)))
        }
    }

    @Test("a lease whose holder never stores expires, and the next member takes it over")
    func expiredLease() async throws {
        try await withNodes { nodes in
            let holder = try nodes.cache { $0.leaseDuration = .milliseconds(400) }
            let other = try nodes.cache { $0.leaseDuration = .milliseconds(400) }
            // Timed from before the lease was taken: the takeover cannot come sooner than
            // its 400 ms, however slow the machine.
            let started = ContinuousClock.now
            guard case .miss(leased: true) = await holder.lookup(forKey: "u", coalescing: true) else { return #expect(Bool(false)) }
            let result = await other.lookup(forKey: "u", coalescing: true)
            let waited = ContinuousClock.now - started
            guard case .miss(leased: true) = result else { return #expect(Bool(false), "\(result)") }
            #expect(waited >= .milliseconds(400) && waited < .seconds(60), "\(waited)")
        }
    }

    @Test("a released lease lets the next member take it at once; a stale release does not free another's lease")
    func release() async throws {
        try await withNodes { nodes in
            let first = try nodes.cache()
            let second = try nodes.cache()
            guard case .miss(leased: true) = await first.lookup(forKey: "u", coalescing: true) else { return #expect(Bool(false)) }
            let waiting = Task { await second.lookup(forKey: "u", coalescing: true) }
            await second.waitForLeaseWaits(1)
            await first.releaseLease(forKey: "u")
            let started = ContinuousClock.now
            guard case .miss(leased: true) = await waiting.value else { return #expect(Bool(false)) }
            #expect(ContinuousClock.now - started < .seconds(10), "at once, not after the 30 s lease")
            // The first member releasing again changes nothing: the lease is the second's.
            await first.releaseLease(forKey: "u")
            let token = await second.client.send(RedisCommand("GET", second.leaseKey("u")), to: 0)
            #expect(token == .success(.bulk(Data(second.leases.withLock { $0["u"] ?? "" }.utf8))))
        }
    }

    @Test("without coalescing (or with it turned off) a miss takes no lease")
    func noLease() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache()
            guard case .miss(leased: false) = await cache.lookup(forKey: "u", coalescing: false) else { return #expect(Bool(false)) }
            let off = try nodes.cache { $0.coalescesMisses = false }
            guard case .miss(leased: false) = await off.lookup(forKey: "u", coalescing: true) else { return #expect(Bool(false)) }
            #expect(await cache.client.send(RedisCommand("EXISTS", cache.leaseKey("u")), to: 0) == .success(.integer(0)))
        }
    }
}

extension SharedCache {
    /// Returns once `count` lookups of this cache wait for a lease another member holds
    /// (or once the test's time limit cancels the task).
    func waitForLeaseWaits(_ count: Int) async {
        let changed = EventSignal()
        let registration = observeLeaseWaits(changed.callback)
        defer { registration.remove() }
        await changed.wait { leaseWaitCount == count }
    }
}
