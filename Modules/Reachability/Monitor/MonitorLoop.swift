internal import CWebImageReachability
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The monitor's thread: waits for notifications on the subscribed socket, drains every
/// one that is waiting (a burst of changes costs one refresh), then reads the tables
/// again on the request socket and publishes the status; then re-evaluates each watched
/// host. Dumping again, rather than patching tables from notifications, keeps the
/// tables right even when notifications were lost (ENOBUFS).
///
/// `@unchecked Sendable`: after `start()`, its sockets are touched by its thread only;
/// the wake descriptor is written from any thread and closed after the thread ended.
final class MonitorLoop: @unchecked Sendable {
    private var subscription: NetlinkSocket?
    private var requests: NetlinkSocket?
    private let wake: Int32
    private let state: MonitorState
    private let kind: @Sendable (LinkMessage) -> NetworkInterfaceKind
    private let finished = DispatchSemaphore(value: 0)
    private let threadID = Locked<pthread_t?>(nil)

    init(
        subscription: NetlinkSocket, requests: NetlinkSocket, state: MonitorState,
        kind: @escaping @Sendable (LinkMessage) -> NetworkInterfaceKind
    ) throws(ReachabilityError) {
        let wake = wir_wake_open()
        guard wake >= 0 else { throw .netlinkFailed(operation: "eventfd", errno: -wake) }
        self.wake = wake
        self.subscription = subscription
        self.requests = requests
        self.state = state
        self.kind = kind
    }

    deinit { close(wake) }

    func start() {
        Thread.startNamed("webimage.reach") { [self] in run() }
    }

    /// Wakes the thread to end, and waits until it has, unless this is the thread itself
    /// (an observer with `.immediate` delivery that stops the monitor).
    func stop() {
        wir_wake_signal(wake)
        let isLoopThread = threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !isLoopThread { finished.wait() }
    }

    private func run() {
        threadID.withLock { $0 = pthread_self() }
        defer {
            // The sockets close here, on the thread that used them.
            subscription = nil
            requests = nil
            finished.signal()
        }
        guard let subscription else { return }
        var entries = [
            pollfd(fd: subscription.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&entries, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                state.update(status: .unknown, links: nil)
                return
            }
            if entries[1].revents != 0 || state.isStopped { return }
            if entries[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, entries[0].revents & Int16(POLLIN) == 0 { return }
            drain(subscription)
            refresh()
        }
    }

    private func drain(_ socket: NetlinkSocket) {
        while true {
            do {
                guard try socket.receive() != nil else { return }
            } catch {
                return
            }
        }
    }

    /// Reads the tables, publishes the network's status, and evaluates each host.
    func refresh() {
        guard let requests else { return }
        let links: [Int32: LinkMessage]
        do {
            let tables = try requests.dumpTables()
            links = tables.links
            state.update(status: ReachabilityEvaluation.networkStatus(links: links, routes: tables.routes, kind: kind), links: links)
        } catch {
            state.update(status: .unknown, links: nil)
            return
        }
        for host in state.hosts where !host.mailbox.isCancelled {
            let addresses = host.addresses
            if addresses.isEmpty {
                HostEvaluation.resolveAndEvaluate(host, state: state, kind: kind)
            } else {
                host.mailbox.post(HostEvaluation.status(of: addresses, using: requests, links: links, kind: kind))
            }
        }
    }
}
