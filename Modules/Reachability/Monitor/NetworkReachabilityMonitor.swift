import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Watches whether the network is there, from the kernel's own tables: a NETLINK_ROUTE
/// socket subscribed to link, address and route changes (IPv4 and IPv6). The network is
/// reachable when a default route goes through a link that is up, running (has a carrier)
/// and not loopback; the kind of that link (wired, wireless, virtual...) comes from
/// `/sys/class/net`. AFNetworking's reachability manager, for Linux.
///
/// ```swift
/// let monitor = try NetworkReachabilityMonitor()
/// print(monitor.currentStatus)                 // reachable(wired)
/// for await status in monitor.statuses { print(status) }
/// ```
///
/// The first status is read before `init` returns. After that, one thread of the
/// monitor's own waits for notifications; a burst of them (a link going down takes its
/// routes and addresses with it) costs one new reading of the tables, so the cost is
/// linear in the number of notifications plus the size of the tables per burst. Changes
/// reach observers within milliseconds.
///
/// Per host: ``status(ofHost:)`` and ``observe(host:delivery:_:)`` resolve the name off
/// the caller's thread, then ask the kernel for its route to each address (as `ip route
/// get` does), again after every change of the tables.
///
/// Reachable is the local half of the question: a route and a link exist. It does not
/// mean the far end answers.
///
/// Thread contract: every method may be called from any thread. ``stop()`` (or the last
/// reference going away) ends the thread and closes the sockets; observers hear nothing
/// after it returns, and ``statuses`` sequences finish.
public final class NetworkReachabilityMonitor: NetworkReachabilityObserving {
    private let state = MonitorState()
    private let loop: MonitorLoop
    private let stopOnce = Locked(false)
    private static let interfaceKind: @Sendable (LinkMessage) -> NetworkInterfaceKind = { InterfaceKindLookup.kind(of: $0) }

    /// Opens the sockets, reads the tables once (so ``currentStatus`` is known when it
    /// returns), and starts the watching thread.
    ///
    /// - Throws: ``ReachabilityError/netlinkUnavailable(errno:)`` where netlink is not
    ///   there (not Linux, or a sandbox that forbids it); ``ReachabilityError`` for a
    ///   first reading that failed.
    public init() throws(ReachabilityError) {
        // Subscribed before the first reading, so no change between the two is missed.
        let subscription = try NetlinkSocket(subscribed: true)
        let requests = try NetlinkSocket(subscribed: false)
        let tables = try requests.dumpTables()
        state.update(
            status: ReachabilityEvaluation.networkStatus(links: tables.links, routes: tables.routes, kind: Self.interfaceKind),
            links: tables.links)
        loop = try MonitorLoop(subscription: subscription, requests: requests, state: state, kind: Self.interfaceKind)
        loop.start()
    }

    deinit { stop() }

    /// The latest status read.
    public var currentStatus: NetworkReachabilityStatus { state.status }

    /// Calls `handler` on `delivery` with the current status, then with each change,
    /// until the token is cancelled or the monitor stops. Calls come one at a time and in
    /// order (give `.queue` a serial queue); `.immediate` runs them on the monitor's
    /// thread, so keep them short there.
    public func observe(
        delivery: CallbackDelivery, _ handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void
    ) -> ReachabilityObservation {
        let id = state.add(StatusMailbox(delivery: delivery, handler: handler))
        let state = self.state
        return ReachabilityObservation { state.remove(id) }
    }

    /// The current status, then each change, until the monitor stops (or the consuming
    /// task is cancelled). A consumer that falls behind skips to the newest 16 statuses.
    public var statuses: AsyncStream<NetworkReachabilityStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkReachabilityStatus.self, bufferingPolicy: .bufferingNewest(16))
        let id = state.add(StatusMailbox(delivery: .immediate) { continuation.yield($0) }, finisher: { continuation.finish() })
        let state = self.state
        continuation.onTermination = { _ in state.remove(id) }
        return stream
    }

    /// Whether `host` is reachable now: its name resolved (off the caller's thread; a
    /// name that does not resolve is unreachable), then the kernel's route to each
    /// address. A local address is `reachable(loopback)`.
    ///
    /// - Parameter host: a name, or an IPv4 or IPv6 literal (brackets allowed).
    /// - Throws: ``ReachabilityError/invalidHost(_:)`` for an empty name or one with a NUL
    ///   byte; ``ReachabilityError`` when the kernel could not be asked.
    public func status(ofHost host: String) async throws(ReachabilityError) -> NetworkReachabilityStatus {
        let addresses = try await HostAddressResolver.resolve(host)
        guard !addresses.isEmpty else { return .unreachable }
        let socket = try NetlinkSocket(subscribed: false)
        return HostEvaluation.status(of: addresses, using: socket, links: state.links, kind: Self.interfaceKind)
    }

    /// Calls `handler` on `delivery` with the status of `host` (see ``status(ofHost:)``)
    /// once it is known, then after each change of the kernel's tables that changes it.
    /// A name that does not resolve reports `unreachable` and is resolved again after the
    /// next change; once resolved, its addresses are kept for this observation.
    ///
    /// - Throws: ``ReachabilityError/invalidHost(_:)`` for an empty name or one with a NUL
    ///   byte, ``ReachabilityError/stopped`` after ``stop()``.
    public func observe(
        host: String, delivery: CallbackDelivery, _ handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void
    ) throws(ReachabilityError) -> ReachabilityObservation {
        guard !host.isEmpty, !host.utf8.contains(0) else { throw .invalidHost(host) }
        let watch = HostWatch(host: host, mailbox: StatusMailbox(delivery: delivery, handler: handler))
        guard let id = state.add(watch) else { throw .stopped }
        HostEvaluation.resolveAndEvaluate(watch, state: state, kind: Self.interfaceKind)
        let state = self.state
        return ReachabilityObservation { state.remove(id) }
    }

    /// Ends the thread, closes the sockets, finishes the ``statuses`` sequences and
    /// forgets every observer. Waits for the thread unless called on it (from an
    /// `.immediate` observer). Safe any number of times.
    public func stop() {
        let first = stopOnce.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        let finishers = state.stop()
        loop.stop()
        for finish in finishers { finish() }
    }
}
