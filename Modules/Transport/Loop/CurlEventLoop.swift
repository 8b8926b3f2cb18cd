import CLibCurl
import CWebImageTransport
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Dispatches every event of one transport's transfers on one thread: commands from the
/// inbox, hops libcurl reports done, timer ticks. It owns a libcurl multi handle and its
/// easy handles, loops `curl_multi_perform`, `curl_multi_info_read`, `curl_multi_poll`
/// (the shape libcurl's documentation suggests), and hands each event to the part that
/// decides: a transfer's ``TransferState.StateMachine``, ``SlotScheduler`` for connection
/// slots, ``RedirectPlanner``, ``ChallengeResponder`` and ``OriginCredentialCache`` for
/// 401s, ``DataURLServer`` for `data:` URLs, ``CurlErrorMapping`` for failures.
///
/// Other threads only post commands to the inbox and wake the thread with
/// `curl_multi_wakeup`; every libcurl call, callback and cleanup happens here, and the
/// loop-only state is checked to be touched here alone (``LoopThreadCheck``, debug builds).
final class CurlEventLoop: @unchecked Sendable {
    enum Command {
        case start(TransferState)
        case cancel(UInt64)
        case pause(UInt64)
        case resume(UInt64)
        case challengeAnswered(TransferState, AuthenticationChallenge, ChallengeDisposition)
        /// Ends the loop once no transfer is left. `cancelling` (``CurlTransport/shutdown()``)
        /// completes every transfer as `invalidated` and refuses the ones started after;
        /// otherwise (the transport deinitialised, so nothing new can start) the running
        /// ones finish first.
        case shutdown(cancelling: Bool)
        /// Hands the transfers not yet completed, in the order they started, to the reply.
        case snapshot(@Sendable ([TransferSnapshot]) -> Void)
    }

    private struct Inbox {
        var commands: [Command] = []
        /// Set by the loop as it exits: nothing is accepted after, and the multi handle
        /// is gone.
        var closed = false
        /// Set once the loop's thread has ended (joined), its libcurl handles freed.
        var ended = false
        /// Called once the thread has ended (see ``whenEnded(_:)``).
        var endWaiters: [@Sendable () -> Void] = []
    }

    let environment: TransportEnvironment
    private let inbox = Locked(Inbox())
    let multi: UnsafeMutableRawPointer
    let cookieShare: UnsafeMutableRawPointer?
    let loopThread = LoopThreadCheck()

    // Loop-thread state.
    var transfers: [UInt64: TransferState] = [:]
    /// The hops libcurl reported done in one pass of the loop (kept for its capacity).
    private var finished: [(state: TransferState, easy: UnsafeMutableRawPointer, code: CURLcode)] = []
    /// Who holds the connection slots, and the transfers waiting for one, kept out of
    /// libcurl (see SlotScheduler).
    var slots = SlotScheduler<TransferState>()
    var idleHandles: [UnsafeMutableRawPointer] = []
    private var shuttingDown = false
    /// Shut down explicitly: transfers started from now on complete as `transportClosed`.
    private(set) var refusesTransfers = false
    var credentials = OriginCredentialCache()
    /// The revocation answers transfers fetched (see `OnlineRevocation`), shared by them.
    let revocationAnswers: RevocationAnswerStore
    var lastTimerCheck = ContinuousClock.now

    static let idleHandleLimit = 64
    /// Transfers admitted per HTTP/2 connection: libcurl's default for
    /// CURLMOPT_MAX_CONCURRENT_STREAMS.
    static let streamsPerConnection = 100
    static let timerCheckInterval = Duration.milliseconds(100)

    init(environment: TransportEnvironment) {
        _ = CurlLibrary.initialised
        self.environment = environment
        revocationAnswers = RevocationAnswerStore(capacity: environment.configuration.revocationCacheCapacity)
        multi = curl_multi_init()
        let configuration = environment.configuration
        wi_multi_setopt_long(multi, CURLMOPT_PIPELINING, configuration.multiplexesHTTP2 ? Int(CURLPIPE_MULTIPLEX) : Int(CURLPIPE_NOTHING))
        wi_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        wi_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maximumTotalConnections)
        wi_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maximumIdleConnections)
        cookieShare = curl_share_init()
        if let cookieShare { wi_share_setopt_long(cookieShare, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) }
    }

    /// Starts the loop's thread: joinable, so that ``whenEnded(_:)`` can report the
    /// thread gone, not only about to end.
    func start() {
        _ = Thread.startJoinable(named: "webimage.curl") { self.run() }
    }

    /// Calls `callback` once the loop's thread has ended and freed libcurl's handles: at
    /// once when it already has, else on a short-lived thread that joined it.
    func whenEnded(_ callback: @escaping @Sendable () -> Void) {
        let ended = inbox.withLock { inbox -> Bool in
            if !inbox.ended { inbox.endWaiters.append(callback) }
            return inbox.ended
        }
        if ended { callback() }
    }

    /// Queues a command; `false` when the loop has exited.
    @discardableResult
    func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            // Commands already waiting mean a wake-up is already on its way, and the loop
            // takes every command at once: one wake-up per batch, not one write per start.
            let wakes = inbox.commands.isEmpty
            inbox.commands.append(command)
            // Inside the lock: the loop cleans the multi handle up only after closing.
            if wakes { curl_multi_wakeup(multi) }
            return true
        }
    }

    // MARK: The loop

    private func run() {
        loopThread.recordCurrentThread()
        var running: Int32 = 0
        var taken: [Command] = []
        while true {
            // Two buffers trade places: taking the commands allocates nothing.
            inbox.withLock { swap(&$0.commands, &taken) }
            for command in taken { handle(command) }
            taken.removeAll(keepingCapacity: true)
            admitWaiting()
            if shuttingDown, transfers.isEmpty {
                let closed = inbox.withLock { inbox -> Bool in
                    guard inbox.commands.isEmpty else { return false }
                    inbox.closed = true
                    return true
                }
                if closed { break }
                continue
            }
            curl_multi_perform(multi, &running)
            var finishedAny = false
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            finished.removeAll(keepingCapacity: true)
            while wi_multi_next_done(multi, &easy, &code) != 0, let done = easy {
                guard let state = Self.state(of: done) else { continue }
                // Out of the multi handle first, freeing the hop's slot...
                removeFromMulti(state)
                finished.append((state, done, code))
            }
            if !finished.isEmpty {
                // ...so that the transfers waiting for those slots send their requests
                // before the finished ones are processed: on a busy connection the next
                // request does not wait for the last one's bookkeeping and delegate.
                if admitWaiting() { curl_multi_perform(multi, &running) }
                for (state, done, code) in finished { finish(state, done, code) }
                finishedAny = true
            }
            if checkTimers() { finishedAny = true }
            // A finished hop may have queued the next one: perform again before waiting.
            if finishedAny { continue }
            let watching = slots.watchesTimers
            curl_multi_poll(multi, nil, 0, watching ? Int32(Self.timerCheckInterval.milliseconds) : 1000, nil)
        }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles.removeAll()
        curl_multi_cleanup(multi)
        if let cookieShare { curl_share_cleanup(cookieShare) }
        reapThread()
    }

    /// A thread cannot wait for itself to end: another one joins this one, then tells
    /// whoever waits for the end.
    private func reapThread() {
        let thread = pthread_self()
        Thread.startNamed("webimage.reaper") { [self] in
            pthread_join(thread, nil)
            let waiters = inbox.withLock { inbox in
                inbox.ended = true
                defer { inbox.endWaiters = [] }
                return inbox.endWaiters
            }
            for waiter in waiters { waiter() }
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let state):
            state.revocationAnswers = revocationAnswers
            begin(state)
        case .cancel(let id):
            guard let state = transfers[id] else { return }
            complete(state, .failure(state.error(.cancelled, "cancelled")))
        case .pause(let id):
            if let state = transfers[id] { pauseTransfer(state) }
        case .resume(let id):
            if let state = transfers[id] { resumeTransfer(state) }
        case .challengeAnswered(let state, let challenge, let disposition):
            answer(state, challenge, disposition)
        case .shutdown(let cancelling):
            shuttingDown = true
            if cancelling, !refusesTransfers { invalidate() }
        case .snapshot(let reply):
            reply(transfers.values.sorted(by: { $0.task.id < $1.task.id }).map(\.snapshot))
        }
    }

    /// The explicit shutdown: every transfer not yet completed (running, paused, waiting
    /// for a slot, awaiting a challenge answer) completes as `invalidated`, in the order
    /// they started, the monitors hear that the transport is invalid, and the later
    /// transfers are refused (``begin(_:)``).
    private func invalidate() {
        refusesTransfers = true
        let ended = transfers.values.sorted(by: { $0.task.id < $1.task.id })
        for state in ended {
            complete(state, .failure(state.error(.invalidated, "the transport was shut down")))
        }
        if !environment.monitors.isEmpty {
            let count = ended.count
            environment.monitors.emit { $0.transportDidInvalidate(endedTransfers: count) }
        }
    }

    // MARK: Events of one transfer

    func begin(_ state: TransferState) {
        state.loopThread = loopThread
        transfers[state.task.id] = state
        if !environment.monitors.isEmpty {
            let (task, request) = (state.task, state.request)
            environment.monitors.emit { $0.transferDidStart(task, request: request) }
        }
        if refusesTransfers {
            complete(state, .failure(TransportError(.transportClosed, "the transport was shut down", url: state.url)))
            return
        }
        if state.task.isCancelled {
            complete(state, .failure(TransportError(.cancelled, "cancelled before it started", url: state.url)))
            return
        }
        // Unknown schemes fail as invalidURL below; no array is made per transfer here.
        let known = state.scheme == "http" || state.scheme == "https" || state.scheme == "file" || state.scheme == "data"
        if known, let violation = state.policy.violation(for: state.url) {
            complete(state, .failure(state.refusal(violation)))
            return
        }
        switch state.scheme {
        case "http", "https", "file":
            guard state.scheme == "file" || !(state.url.host ?? "").isEmpty else {
                complete(state, .failure(TransportError(.invalidURL, "the URL has no host", url: state.url)))
                return
            }
            startHop(state)
        case "data":
            complete(state, DataURLServer.serve(state))
        default:
            complete(
                state,
                .failure(
                    TransportError(
                        .invalidURL, "the scheme \(state.url.scheme ?? "(none)") is not supported", url: state.url)))
        }
    }

    private static func state(of easy: UnsafeMutableRawPointer) -> TransferState? {
        var pointer: UnsafeMutableRawPointer?
        wi_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
        guard let pointer else { return nil }
        return Unmanaged<TransferState>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// A hop libcurl reported done, already out of the multi handle: the transfer ends,
    /// or its next hop (a redirect, an authentication retry) starts.
    private func finish(_ state: TransferState, _ easy: UnsafeMutableRawPointer, _ code: CURLcode) {
        let outcome = HopOutcome.read(state, easy, code)
        if holdEndedHop(state, outcome: outcome) { return }
        switch outcome {
        case .failed(let error):
            complete(state, .failure(error))
        case .revocationPending(let plan):
            fetchRevocation(for: state, plan)
        case .head(let response):
            switch state.disposition(of: response) {
            case .deliver(let response):
                credentials.remember(state, origin: Self.origin(of: state))
                completeDelivered(state, response)
            case .httpError(let response):
                if response.statusCode == 401 { credentials.forget(origin: Self.origin(of: state)) }
                complete(
                    state,
                    .failure(
                        TransportError(
                            .httpStatus, "the server answered \(response.statusCode)", url: state.url, response: response, bytesReceived: 0)
                    ))
            case .redirect(.failure(var error), let response):
                error.response = response
                error.bytesReceived = 0
                complete(state, .failure(error))
            case .redirect(.success(let hop), let response):
                follow(state, to: hop, from: response)
            case .challenge(let response):
                credentials.forget(origin: Self.origin(of: state))
                putChallenge(state, response)
            }
        }
    }

    /// The current hop's scheme://host:port, lowercased, the port filled in.
    static func origin(of state: TransferState) -> String {
        OriginKey.make(state.url, scheme: state.scheme)
    }
}
