import WebImageConcurrency
import WebImageCore

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
/// When the last reference goes, transfers in flight finish, then the thread ends.
///
/// ```swift
/// let transport = CurlTransport()
/// let fetched = try await transport.data(for: TransportRequest(url: imageURL))
/// print(fetched.response.statusCode, fetched.data.count, fetched.metrics.totalDuration)
/// ```
public final class CurlTransport: Transporting {
    public let configuration: TransportConfiguration
    private let environment: TransportEnvironment
    private let loop: CurlEventLoop

    public init(configuration: TransportConfiguration = .init()) {
        self.configuration = configuration
        environment = TransportEnvironment(configuration)
        loop = CurlEventLoop(environment: environment)
        loop.start()
    }

    deinit {
        loop.post(.shutdown)
    }

    /// Adds a monitor while the transport runs. It sees the events that happen after
    /// this call returns, on `delivery` (the monitor's own `TransportEventMonitor.delivery`
    /// when `nil`), until the registration is removed; transfers already under way are
    /// reported from their next event on.
    @discardableResult
    public func addEventMonitor(_ monitor: any TransportEventMonitor, delivery: CallbackDelivery? = nil) -> EventMonitorRegistration {
        environment.monitors.add(monitor, delivery: delivery ?? monitor.delivery)
    }

    @discardableResult
    public func start(_ request: TransportRequest, delegate: any TransferDelegate) -> TransferTask {
        let task = TransferTask(
            onCancel: { [weak loop] task in loop?.post(.cancel(task.id)) },
            onPauseChange: { [weak loop] task, paused in loop?.post(paused ? .pause(task.id) : .resume(task.id)) })
        let state = TransferState(task: task, request: request, delegate: delegate, environment: environment)
        loop.post(.start(state))
        return task
    }
}
