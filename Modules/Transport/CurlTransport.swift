import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore
import WebImageResources

/// Fetches HTTP(S), `file:` and `data:` URLs with libcurl's multi interface.
///
/// One thread per transport drives every transfer: connections are reused across
/// transfers, and concurrent HTTPS requests to one host share an HTTP/2 connection when
/// the server offers it. Events reach delegates on that thread (see
/// `TransferDelegate`), so a request costs at most two thread hops: the
/// caller's thread to the transport's, and the transport's to wherever the delegate sends
/// the result.
///
/// Make one transport and share it; each one costs a thread and its own connection pool.
/// Call ``shutdown()`` when done with it (as a server stops, before the last reference
/// goes): transfers not yet completed complete as invalidated, and the thread ends. A
/// transport deinitialised without a shutdown still ends its thread, once its transfers
/// in flight have finished; debug builds report it on standard error, once per process.
///
/// ```swift
/// let transport = CurlTransport()
/// let fetched = try await transport.data(for: TransportRequest(url: imageURL))
/// print(fetched.response.statusCode, fetched.data.count, fetched.metrics.totalDuration)
/// await transport.shutdown()
/// ```
public final class CurlTransport: Transporting {
    public let configuration: TransportConfiguration
    private let environment: TransportEnvironment
    private let loop: CurlEventLoop
    private let shutdownCalled = Atomic<Bool>(false)
    /// Unique within the process: names this transport in ``MissedShutdowns``.
    package let serial = CurlTransport.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)

    public init(configuration: TransportConfiguration = .init()) {
        self.configuration = configuration
        environment = TransportEnvironment(configuration)
        loop = CurlEventLoop(environment: environment)
        loop.start()
    }

    deinit {
        #if DEBUG
            if !shutdownCalled.load(ordering: .acquiring) { MissedShutdowns.record(serial) }
        #endif
        // After a shutdown the loop has ended or is ending, and this does nothing.
        loop.post(.shutdown(cancelling: false))
    }

    /// Stops (invalidates) the transport, and returns once it has stopped: every transfer
    /// not yet completed (running, paused, waiting for a connection, awaiting a challenge
    /// answer) completes once, with `TransportError.Code.invalidated`; then the event
    /// monitors hear `TransportEventMonitor.transportDidInvalidate(endedTransfers:)`;
    /// the transport's thread ends and frees libcurl's handles and connections.
    ///
    /// A transfer started after this call completes at once with
    /// `TransportError.Code.transportClosed`, without touching the network. Calling it
    /// again, or from several tasks at once, is safe: every call returns once the thread
    /// has ended. Cancelling the calling task does not cut the wait short.
    public func shutdown() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            shutdown { done.resume() }
        }
    }

    /// ``shutdown()`` with a callback: `completion` runs once the transport's thread has
    /// ended, on another thread (or on the calling one, when it already has).
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        shutdownCalled.store(true, ordering: .releasing)
        loop.whenEnded(completion)
        loop.post(.shutdown(cancelling: true))
    }

    /// The transfers not yet completed, in the order they started, each with its task,
    /// URL, state (waiting for a connection, running, paused, awaiting a challenge's
    /// answer) and progress (AFNetworking's `tasks`). One consistent picture, taken on
    /// the transport's thread between two of its events; empty once the transport has
    /// shut down. Safe from any thread.
    public func transfersInFlight() async -> [TransferSnapshot] {
        await withCheckedContinuation { (taken: CheckedContinuation<[TransferSnapshot], Never>) in
            transfersInFlight { taken.resume(returning: $0) }
        }
    }

    /// ``transfersInFlight()`` with a callback: `completion` runs on the transport's thread
    /// (keep it short), or on the calling one once the transport has shut down.
    public func transfersInFlight(completion: @escaping @Sendable ([TransferSnapshot]) -> Void) {
        if !loop.post(.snapshot(completion)) { completion([]) }
    }

    /// Adds a monitor while the transport runs. It sees the events that happen after
    /// this call returns, on `delivery` (the monitor's own `TransportEventMonitor.delivery`
    /// when `nil`), until the registration is removed; transfers already under way are
    /// reported from their next event on.
    @discardableResult
    public func addEventMonitor(_ monitor: any TransportEventMonitor, delivery: CallbackDelivery? = nil) -> EventMonitorRegistration {
        environment.monitors.add(monitor, delivery: delivery ?? monitor.delivery)
    }

    /// Starts a transfer; see `Transporting`. After ``shutdown()`` the transfer completes
    /// at once with `TransportError.Code.transportClosed`.
    @discardableResult
    public func start(_ request: TransportRequest, delegate: any TransferDelegate) -> TransferTask {
        let task = TransferTask(
            onCancel: { [weak loop] task in loop?.post(.cancel(task.id)) },
            onPauseChange: { [weak loop] task, paused in loop?.post(paused ? .pause(task.id) : .resume(task.id)) })
        let state = TransferState(task: task, request: request, delegate: delegate, environment: environment)
        if !loop.post(.start(state)) { refuse(task, request, delegate) }
        return task
    }

    /// A transfer started once the loop has ended (one started while it ends is refused
    /// by the loop itself): completed as `transportClosed`, the monitors first, and off
    /// the calling thread as every completion is, so that the caller has the task first.
    private func refuse(_ task: TransferTask, _ request: TransportRequest, _ delegate: any TransferDelegate) {
        let completion = TransferCompletion(
            result: .failure(TransportError(.transportClosed, "the transport was shut down", url: request.url)),
            metrics: TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0))
        let monitors = environment.monitors
        Task(executorPreference: WorkerPool.shared, priority: .high) {
            monitors.emit { $0.transferDidStart(task, request: request) }
            monitors.emit { $0.transfer(task, didCollect: completion.metrics) }
            monitors.emit { $0.transfer(task, didComplete: completion) }
            delegate.transfer(task, didComplete: completion)
        }
    }
}
