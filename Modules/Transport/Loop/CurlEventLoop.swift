import CLibCurl
import CWebImageTransport
import Foundation
import Synchronization
import WebImageCore

/// One thread that owns a libcurl multi handle and every easy handle of one transport,
/// and loops `curl_multi_perform`, `curl_multi_info_read`, `curl_multi_poll` (the shape
/// libcurl's documentation suggests). Other threads only post commands to the inbox and
/// wake the thread with `curl_multi_wakeup`; every libcurl call, callback and cleanup
/// happens here.
final class CurlEventLoop: @unchecked Sendable {
    enum Command {
        case start(TransferState)
        case cancel(UInt64)
        case challengeAnswered(TransferState, AuthenticationChallenge, ChallengeDisposition)
        case shutdown
    }

    private struct Inbox {
        var commands: [Command] = []
        /// Set by the loop as it exits: nothing is accepted after, and the multi handle
        /// is gone.
        var closed = false
    }

    private let environment: TransportEnvironment
    private let inbox = Locked(Inbox())
    private let multi: UnsafeMutableRawPointer
    private let cookieShare: UnsafeMutableRawPointer?

    // Loop-thread state.
    private var transfers: [UInt64: TransferState] = [:]
    /// The hops libcurl reported done in one pass of the loop (kept for its capacity).
    private var finished: [(state: TransferState, easy: UnsafeMutableRawPointer, code: CURLcode)] = []
    /// Transfers waiting for a connection slot, kept out of libcurl (see AdmissionControl).
    private var admission = AdmissionControl<TransferState>()
    private var idleHandles: [UnsafeMutableRawPointer] = []
    private var shuttingDown = false
    /// Origins whose credential worked, sent up front to later requests (as URLSession
    /// does), so a protected image costs one round trip, not two.
    private var authenticatedOrigins: [String: (ProtectionSpace, Credential)] = [:]

    private static let idleHandleLimit = 64
    /// Transfers admitted per HTTP/2 connection: libcurl's default for
    /// CURLMOPT_MAX_CONCURRENT_STREAMS.
    private static let streamsPerConnection = 100
    /// Transfers in the multi handle that have a stall timeout.
    private var stallWatch = 0
    private var lastTimerCheck = ContinuousClock.now
    private static let timerCheckInterval = Duration.milliseconds(100)

    init(environment: TransportEnvironment) {
        _ = CurlLibrary.initialised
        self.environment = environment
        multi = curl_multi_init()
        let configuration = environment.configuration
        wi_multi_setopt_long(multi, CURLMOPT_PIPELINING, configuration.multiplexesHTTP2 ? Int(CURLPIPE_MULTIPLEX) : Int(CURLPIPE_NOTHING))
        wi_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        wi_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maximumTotalConnections)
        wi_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maximumIdleConnections)
        cookieShare = curl_share_init()
        if let cookieShare { wi_share_setopt_long(cookieShare, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) }
    }

    func start() {
        let thread = Thread { [self] in run() }
        // Linux keeps 15 characters of a thread name.
        thread.name = "webimage.curl"
        thread.start()
    }

    /// Queues a command; `false` when the loop has exited.
    @discardableResult
    func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            // Inside the lock: the loop cleans the multi handle up only after closing.
            curl_multi_wakeup(multi)
            return true
        }
    }

    // MARK: The loop

    private func run() {
        var running: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox -> [Command] in
                let taken = inbox.commands
                inbox.commands.removeAll(keepingCapacity: true)
                return taken
            }
            for command in commands { handle(command) }
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
            let watching = stallWatch > 0 || admission.waitingCount > 0
            curl_multi_poll(multi, nil, 0, watching ? Int32(Self.timerCheckInterval.milliseconds) : 1000, nil)
        }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles.removeAll()
        curl_multi_cleanup(multi)
        if let cookieShare { curl_share_cleanup(cookieShare) }
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let state):
            begin(state)
        case .cancel(let id):
            guard let state = transfers[id] else { return }
            complete(state, .failure(state.error(.cancelled, "cancelled")))
        case .challengeAnswered(let state, let challenge, let disposition):
            answer(state, challenge, disposition)
        case .shutdown:
            shuttingDown = true
        }
    }

    // MARK: Starting

    private func begin(_ state: TransferState) {
        transfers[state.task.id] = state
        if environment.hasMonitors {
            for monitor in environment.monitors { monitor.transferDidStart(state.task, request: state.request) }
        }
        if state.task.isCancelled {
            complete(state, .failure(TransportError(.cancelled, "cancelled before it started", url: state.url)))
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
            serveDataURL(state)
        default:
            complete(state, .failure(TransportError(
                .invalidURL, "the scheme \(state.url.scheme ?? "(none)") is not supported", url: state.url)))
        }
    }

    /// Starts the current hop: into libcurl at once when its lane has a free slot,
    /// otherwise once one frees (``admitWaiting()``).
    private func startHop(_ state: TransferState) {
        let origin = Self.origin(of: state)
        if let lane = lane(for: state, origin: origin) {
            let (admitted, queue) = admission.enter(state, lane: lane, limit: limit(of: lane))
            state.lane = queue
            guard admitted else {
                state.isWaiting = true
                state.lastQueuedAt = .now
                return
            }
        }
        addToMulti(state, origin: origin)
    }

    /// Hands libcurl the waiting transfers that have a free slot now; whether any.
    @discardableResult
    private func admitWaiting() -> Bool {
        var admitted = false
        while let (state, queue) = admission.next() {
            state.isWaiting = false
            addToMulti(state, origin: queue.lane.origin)
            admitted = true
        }
        return admitted
    }

    /// HTTP(S) hops queue per origin; `file:` hops need no connection.
    private func lane(for state: TransferState, origin: String) -> AdmissionControl<TransferState>.Lane? {
        let scheme = state.scheme
        guard scheme == "http" || scheme == "https" else { return nil }
        let multiplexed = scheme == "https" && environment.configuration.multiplexesHTTP2
            && state.request.preferredHTTPVersion != .http1_1
        return .init(origin: origin, multiplexed: multiplexed)
    }

    /// As many transfers as the lane's connections can carry at once: one each over
    /// HTTP/1.1, a connection's streams over HTTP/2. libcurl still enforces the
    /// connection limits itself; this only keeps its queue short.
    private func limit(of lane: AdmissionControl<TransferState>.Lane) -> Int {
        let connections = environment.configuration.maximumConnectionsPerHost
        guard connections > 0 else { return 0 }
        return lane.multiplexed ? connections * Self.streamsPerConnection : connections
    }

    /// Gives back the transfer's lane slot, or its place in the lane's queue.
    private func releaseSlot(_ state: TransferState) {
        guard let queue = state.lane else { return }
        if state.isWaiting {
            admission.withdraw(state, from: queue)
            state.isWaiting = false
        } else {
            admission.leave(queue)
        }
        state.lane = nil
    }

    private func addToMulti(_ state: TransferState, origin: String) {
        let easy: UnsafeMutableRawPointer
        if let existing = state.easy {
            curl_easy_reset(existing)
            easy = existing
        } else if let pooled = idleHandles.popLast() {
            easy = pooled
        } else if let fresh = curl_easy_init() {
            easy = fresh
        } else {
            complete(state, .failure(TransportError(.other, "libcurl could not make a handle", url: state.url)))
            return
        }
        state.easy = easy
        state.resetForNextHop()
        let now = ContinuousClock.now
        if let start = state.budgetStart, let total = state.request.timeouts.total, now - start >= total {
            // A later hop that waited out the rest of the budget: not sent with 1 ms left.
            complete(state, .failure(state.error(.timedOut, "the transfer took longer than \(total)")))
            return
        }
        if state.budgetStart == nil { state.budgetStart = now }
        var authentication = state.credential.map { ($0.space, $0.credential) }
        if authentication == nil, state.request.credential == nil, !state.request.headers.contains("Authorization") {
            authentication = authenticatedOrigins[origin]
        }
        if let error = EasyHandleSetup.configure(easy, for: state, authentication: authentication) {
            complete(state, .failure(error))
            return
        }
        if state.request.usesCookies, let cookieShare {
            wi_easy_setopt_share(easy, cookieShare)
            wi_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "")
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            complete(state, .failure(TransportError(.other, "libcurl refused the transfer (CURLMcode \(added.rawValue))", url: state.url)))
            return
        }
        state.isInMulti = true
        if state.request.timeouts.stall != nil { stallWatch += 1 }
    }

    /// Fails the transfers that have received nothing for their stall timeout, and the
    /// ones still waiting for a slot when their whole-transfer timeout is up; at most
    /// every ``timerCheckInterval``. Returns whether any was failed.
    private func checkTimers() -> Bool {
        guard stallWatch > 0 || admission.waitingCount > 0 else { return false }
        let now = ContinuousClock.now
        guard now - lastTimerCheck >= Self.timerCheckInterval else { return false }
        lastTimerCheck = now
        var expired: [(TransferState, Duration)] = []
        if admission.waitingCount > 0 {
            for state in admission.waitingItems {
                guard let total = state.request.timeouts.total else { continue }
                if now - (state.budgetStart ?? state.startedAt) >= total { expired.append((state, total)) }
            }
        }
        for (state, total) in expired {
            // Never sent: the server saw nothing of it. A later hop (after a redirect or
            // a challenge) spends the budget that began with the first.
            let error = state.budgetStart == nil
                ? state.error(.waitedForConnection, "no connection came free within \(total); the request was not sent")
                : state.error(.timedOut, "the transfer took longer than \(total), the last \(now - state.lastQueuedAt) waiting for a connection")
            complete(state, .failure(error))
        }
        var stalled: [TransferState] = []
        for state in transfers.values where state.isInMulti {
            guard let limit = state.request.timeouts.stall else { continue }
            if state.activity != state.activitySeen {
                state.activitySeen = state.activity
                state.lastActivity = now
            } else if let wire = state.connectionBytesReceived(), wire != state.wireBytesSeen {
                // Bytes libcurl did not pass on (chunk framing and extensions) still
                // show the server is sending.
                state.wireBytesSeen = wire
                state.lastActivity = now
            } else if now - state.lastActivity > limit {
                stalled.append(state)
            }
        }
        for state in stalled {
            let limit = state.request.timeouts.stall ?? .zero
            if let easy = state.easy {
                state.transactions.append(TransactionMetricsReader.read(
                    easy, url: state.url, statusCode: state.currentResponse()?.statusCode, httpVersion: state.currentResponse()?.httpVersion))
            }
            complete(state, .failure(state.error(.stalled, "nothing arrived for \(limit)")))
        }
        return !stalled.isEmpty || !expired.isEmpty
    }

    private func serveDataURL(_ state: TransferState) {
        guard let data = DataURL(state.url) else {
            complete(state, .failure(TransportError(.invalidURL, "a malformed data URL", url: state.url)))
            return
        }
        if let limit = state.request.maximumBodySize, Int64(data.bytes.count) > limit {
            complete(state, .failure(TransportError(.bodyTooLarge, "the data URL holds \(data.bytes.count) bytes, over \(limit)", url: state.url)))
            return
        }
        let response = TransportResponse(
            url: state.url, statusCode: 200,
            headers: ["Content-Type": data.mediaType, "Content-Length": String(data.bytes.count)], httpVersion: nil)
        state.deliver(response)
        if state.request.method == .get, !data.bytes.isEmpty {
            state.headDecided = true
            _ = data.bytes.withUnsafeBytes { state.receiveBody($0) }
        }
        complete(state, state.failure.map { .failure($0) } ?? .success(response))
    }

    // MARK: Finishing a hop

    private static func state(of easy: UnsafeMutableRawPointer) -> TransferState? {
        var pointer: UnsafeMutableRawPointer?
        wi_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
        guard let pointer else { return nil }
        return Unmanaged<TransferState>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// A hop libcurl reported done, already out of the multi handle.
    private func finish(_ state: TransferState, _ easy: UnsafeMutableRawPointer, _ code: CURLcode) {
        let response = state.currentResponse()
        state.transactions.append(TransactionMetricsReader.read(
            easy, url: state.url, statusCode: response?.statusCode, httpVersion: response?.httpVersion))

        if state.task.isCancelled {
            complete(state, .failure(state.error(.cancelled, "cancelled")))
            return
        }
        if let failure = state.failure {
            complete(state, .failure(failure))
            return
        }
        if let trustFailure = state.trustFailure {
            complete(state, .failure(TransportError(
                .serverTrustFailed, trustFailure.message, url: state.url, trustFailure: trustFailure, underlyingError: CurlError(code))))
            return
        }
        // A dropped body cut off at the discard limit ends in libcurl's write error; the
        // head still says what happened.
        let cutOff = code == CURLE_WRITE_ERROR && state.discardLimitReached
        if code != CURLE_OK, !cutOff {
            var connectTime: curl_off_t = 0
            wi_easy_getinfo_off(easy, CURLINFO_CONNECT_TIME_T, &connectTime)
            var verifyResult = 0
            wi_easy_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &verifyResult)
            let connected = connectTime > 0 || state.transactions.last?.reusedConnection == true || response != nil
            let head = state.delivered ?? response
            complete(state, .failure(CurlErrorMapping.error(for: code, .init(
                url: state.url, detail: state.errorDetail, connected: connected, verifyResult: verifyResult,
                response: head, bytesReceived: head == nil ? nil : state.bodyBytes))))
            return
        }
        guard let response else {
            complete(state, .failure(TransportError(.malformedResponse, "no response head", url: state.url)))
            return
        }
        switch state.disposition(of: response) {
        case .deliver(let response):
            if state.delivered == nil { state.deliver(response) }
            rememberCredential(of: state)
            complete(state, .success(response))
        case .httpError(let response):
            if response.statusCode == 401 { authenticatedOrigins[Self.origin(of: state)] = nil }
            complete(state, .failure(TransportError(
                .httpStatus, "the server answered \(response.statusCode)", url: state.url, response: response, bytesReceived: 0)))
        case .redirect(.failure(var error), let response):
            error.response = response
            error.bytesReceived = 0
            complete(state, .failure(error))
        case .redirect(.success(let hop), let response):
            follow(state, to: hop, from: response)
        case .challenge(let response):
            authenticatedOrigins[Self.origin(of: state)] = nil
            askChallengeHandler(state, response)
        }
    }

    private func follow(_ state: TransferState, to hop: RedirectPlanner.Hop, from response: TransportResponse) {
        if environment.hasMonitors {
            for monitor in environment.monitors { monitor.transfer(state.task, willRedirectTo: hop.url, from: response) }
        }
        state.redirectCount += 1
        state.url = hop.url
        state.method = hop.method
        if hop.crossesOrigin {
            state.sendsAuthorizationHeader = false
            state.credential = nil
            state.mayOfferRequestCredential = false
        }
        startHop(state)
    }

    // MARK: Authentication challenges

    private func askChallengeHandler(_ state: TransferState, _ response: TransportResponse) {
        let offered = AuthenticationChallengeParser.parse(response.headers.values(for: "WWW-Authenticate"))
            .filter { !state.rejectedMethods.contains($0.method) }
        guard let first = offered.first else {
            complete(state, .failure(TransportError(
                .authenticationFailed, "no authentication scheme left to try", url: state.url, response: response)))
            return
        }
        guard state.challengesAnswered < AuthenticationChallenge.maximumAttempts else {
            complete(state, .failure(TransportError(
                .authenticationFailed, "the credential was refused \(state.challengesAnswered) times", url: state.url, response: response)))
            return
        }
        let space = ProtectionSpace(
            scheme: state.scheme.isEmpty ? "http" : state.scheme, host: state.url.host ?? "",
            port: RedirectPlanner.effectivePort(state.url) ?? 80, realm: first.realm, method: first.method)
        let refused = state.credential?.space == space ? state.credential?.credential : nil
        let challenge = AuthenticationChallenge(
            protectionSpace: space, previousFailureCount: refused == nil ? 0 : state.failedCredentialCount,
            failureResponse: response, proposedCredential: refused)
        if state.mayOfferRequestCredential, let own = state.request.credential {
            state.mayOfferRequestCredential = false
            answer(state, challenge, .useCredential(own), isRequestCredential: true)
            return
        }
        guard let handler = environment.configuration.challengeHandler else {
            complete(state, .failure(TransportError(.httpStatus, "the server answered 401", url: state.url, response: response)))
            return
        }
        state.isAwaitingChallenge = true
        Task { [self] in
            let disposition = await handler.handle(challenge)
            post(.challengeAnswered(state, challenge, disposition))
        }
    }

    private func answer(
        _ state: TransferState, _ challenge: AuthenticationChallenge, _ disposition: ChallengeDisposition,
        isRequestCredential: Bool = false
    ) {
        guard !state.isCompleted else { return }
        state.usesRequestCredential = isRequestCredential
        state.isAwaitingChallenge = false
        if environment.hasMonitors {
            for monitor in environment.monitors { monitor.transfer(state.task, didReceive: challenge, disposition: disposition) }
        }
        let response = challenge.failureResponse
        switch disposition {
        case .useCredential(let credential):
            if challenge.proposedCredential != nil { state.failedCredentialCount += 1 } else { state.failedCredentialCount = 1 }
            state.challengesAnswered += 1
            state.credential = (challenge.protectionSpace, credential)
            startHop(state)
        case .performDefaultHandling:
            complete(state, .failure(TransportError(
                .httpStatus, "the server answered 401", url: state.url, response: response)))
        case .cancel:
            complete(state, .failure(TransportError(.cancelled, "the challenge handler cancelled", url: state.url, response: response)))
        case .rejectProtectionSpace:
            state.rejectedMethods.append(challenge.protectionSpace.method)
            askChallengeHandler(state, response)
        }
    }

    private func rememberCredential(of state: TransferState) {
        guard let used = state.credential, !state.usesRequestCredential else { return }
        authenticatedOrigins[Self.origin(of: state)] = (used.space, used.credential)
    }

    /// The current hop's scheme://host:port, lowercased, the port filled in.
    private static func origin(of state: TransferState) -> String {
        OriginKey.make(state.url, scheme: state.scheme)
    }

    private func removeFromMulti(_ state: TransferState) {
        guard state.isInMulti, let easy = state.easy else { return }
        curl_multi_remove_handle(multi, easy)
        state.isInMulti = false
        if state.request.timeouts.stall != nil { stallWatch -= 1 }
        releaseSlot(state)
    }

    // MARK: Completion

    /// Ends a transfer: metrics gathered, handle given back, then the delegate told, once.
    private func complete(_ state: TransferState, _ result: Result<TransportResponse, TransportError>) {
        guard !state.isCompleted else { return }
        state.isCompleted = true
        transfers[state.task.id] = nil
        releaseSlot(state)
        if let easy = state.easy {
            removeFromMulti(state)
            curl_easy_reset(easy)
            if idleHandles.count < Self.idleHandleLimit { idleHandles.append(easy) } else { curl_easy_cleanup(easy) }
            state.easy = nil
        }
        if let list = state.headerList {
            curl_slist_free_all(list)
            state.headerList = nil
        }
        let completion = TransferCompletion(
            result: result,
            metrics: TransferMetrics(
                transactions: state.transactions, totalDuration: ContinuousClock.now - state.startedAt,
                redirectCount: state.redirectCount))
        state.delegate.transfer(state.task, didComplete: completion)
        if environment.hasMonitors {
            for monitor in environment.monitors { monitor.transfer(state.task, didComplete: completion) }
        }
    }
}
