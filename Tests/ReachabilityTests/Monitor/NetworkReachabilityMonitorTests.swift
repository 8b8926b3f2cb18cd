import Foundation
import Synchronization
import Testing
import WebImageCore

@testable import WebImageConcurrency
@testable import WebImageReachability

/// The monitor on this process's own network namespace: whatever the machine's network,
/// it reads a status, answers for local hosts, and stops cleanly.
@Suite("Reachability: the monitor in this namespace", .timeLimit(.minutes(1)))
struct NetworkReachabilityMonitorTests {
    @Test("the first status is read before init returns; the sequence starts with it and finishes at stop")
    func firstStatusAndStop() async throws {
        let monitor = try NetworkReachabilityMonitor()
        #expect(monitor.currentStatus != .unknown)
        var iterator = monitor.statuses.makeAsyncIterator()
        #expect(await iterator.next() == monitor.currentStatus)
        monitor.stop()
        #expect(await iterator.next() == nil, "stop finishes the sequence")
        monitor.stop()  // twice is fine
    }

    @Test("an observer hears the current status first, on the queue it chose, and nothing after cancelling")
    func observer() async throws {
        let monitor = try NetworkReachabilityMonitor()
        defer { monitor.stop() }
        let (heard, continuation) = AsyncStream.makeStream(of: NetworkReachabilityStatus.self)
        let observation = monitor.observe(delivery: .queue(DispatchQueue(label: "reachability-test"))) { continuation.yield($0) }
        var iterator = heard.makeAsyncIterator()
        #expect(await iterator.next() == monitor.currentStatus)
        observation.cancel()
        observation.cancel()
    }

    @Test("a local address is reachable through loopback; an empty host is a typed error", arguments: ["127.0.0.1", "localhost"])
    func localHost(host: String) async throws {
        let monitor = try NetworkReachabilityMonitor()
        defer { monitor.stop() }
        #expect(try await monitor.status(ofHost: host) == .reachable(.loopback))
        await #expect(throws: ReachabilityError.invalidHost("")) { try await monitor.status(ofHost: "") }
        #expect(throws: ReachabilityError.invalidHost("a\0b")) { try monitor.observe(host: "a\0b", delivery: .immediate) { _ in } }
    }

    @Test("a watched host reports its status once resolved")
    func watchedHost() async throws {
        let monitor = try NetworkReachabilityMonitor()
        defer { monitor.stop() }
        let (heard, continuation) = AsyncStream.makeStream(of: NetworkReachabilityStatus.self)
        let observation = try monitor.observe(host: "127.0.0.1", delivery: .immediate) { continuation.yield($0) }
        defer { observation.cancel() }
        var iterator = heard.makeAsyncIterator()
        #expect(await iterator.next() == .reachable(.loopback))
    }

    @Test("a mailbox delivers in order, never the same status twice in a row, and nothing after cancel")
    func mailbox() {
        final class Heard: Sendable {
            let statuses = Locked<[NetworkReachabilityStatus]>([])
        }
        let heard = Heard()
        let mailbox = StatusMailbox(delivery: .immediate) { status in heard.statuses.withLock { $0.append(status) } }
        for status in [NetworkReachabilityStatus.unknown, .unknown, .unreachable, .reachable(.wired), .reachable(.wired), .unreachable] {
            mailbox.post(status)
        }
        mailbox.cancel()
        mailbox.post(.reachable(.wireless))
        #expect(heard.statuses.withLock { $0 } == [.unknown, .unreachable, .reachable(.wired), .unreachable])
    }
}
