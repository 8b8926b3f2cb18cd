import CLibCurl
import CWebImageTransport
import Foundation
import WebImageConcurrency
import WebImageCore

/// One transfer as the event loop drives it, across its hops (redirects and
/// authentication retries): the request, its delegate, what its hops received, and its
/// ``lifecycle``. Lives on the loop's thread only (checked in debug builds); libcurl's
/// callbacks reach it through an unretained pointer, which is safe because the loop
/// holds it strongly until its easy handle has been cleaned up.
final class TransferState: @unchecked Sendable {
    let task: TransferTask
    let request: TransportRequest
    let delegate: any TransferDelegate
    let environment: TransportEnvironment
    /// The request's URL policy, else the transport's.
    let policy: URLPolicy
    let startedAt = ContinuousClock.now
    /// Where the transfer is: idle, waiting for a slot, running, awaiting a challenge
    /// answer, finished.
    var lifecycle: TransferState.StateMachine<AdmissionControl<TransferState>.LaneQueue>
    /// The loop's thread, checked by every callback in debug builds.
    var loopThread: LoopThreadCheck?

    // The current hop.
    var url: URL {
        didSet { scheme = url.scheme?.lowercased() ?? "" }
    }
    /// The hop's scheme, lowercased: read several times a hop, and URL's accessor is
    /// not cheap on Linux.
    private(set) var scheme: String
    var method: TransportRequest.Method
    /// The request's headers, or those a redirect handler gave a later hop.
    var headers: HTTPHeaderFields
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var parser = ResponseHeadParser()
    /// What this hop does with body bytes.
    var reception = Reception.headUndecided
    var evaluator: (any ServerTrustEvaluating)?
    var trustFailure: ServerTrustError?
    /// The hop's evaluator waits for OpenSSL's status callback (a stapled OCSP response
    /// was asked for) and has not run yet.
    var awaitsStatusEvaluation = false
    /// The hop's handshake lacked a fetched revocation answer: the loop fetches it, then
    /// starts the hop again.
    var revocationFetch: RevocationFetchPlan?
    /// The first address of this hop the URL policy refused: a connection libcurl then
    /// could not open, or a reused one it was told not to send on.
    var policyViolation: URLPolicyViolation?

    // Across hops.
    var delivered: TransportResponse?
    var bodyBytes: Int64 = 0
    var expectedLength: Int64?
    var failure: TransportError?
    var transactions: [TransferMetrics.Transaction] = []
    var redirectCount = 0
    /// The credential in use, failures, refused schemes (see ``ChallengeResponder``).
    var authentication = AuthenticationProgress()
    /// The transport's fetched revocation answers, which this transfer's handshakes may
    /// read and add to; `nil` for a transfer that fetches one (it never fetches itself).
    var revocationAnswers: RevocationAnswerStore?
    /// The hosts a revocation answer was fetched for: a handshake that still lacks one
    /// after the fetch fails rather than fetching again.
    var revocationFetchedHosts: Set<String> = []
    /// Counts header lines and body chunks; the lifecycle's timer check compares it with
    /// what it saw last (reading no clock per chunk), for the stall timeout.
    var activity = 0
    /// The current hop has its connection and is sending its request (libcurl's
    /// pre-request callback ran): from then on the stall timeout applies.
    var hasConnection = false

    // Pausing where the hop may share an HTTP/2 connection (see ``holdsBodyWhilePaused``).
    /// Body bytes that arrived while the transfer was paused, delivered at the resume.
    var heldBody: [UInt8] = []
    /// The hop was cut off at the paused-body limit: the transfer stays paused, and asks
    /// for the rest when resumed.
    var letGoWhilePaused = false
    /// How the next hop asks for the rest of a body that was let go.
    var continuation: PausedContinuation?
    /// How a hop that ended while its body waited here ends the transfer, at the resume.
    var parked: Result<TransportResponse, TransportError>?

    /// Bodies of responses that are not delivered are read up to this size so that the
    /// connection can be kept; a larger one is cut off.
    static let discardLimit = 256 * 1024
    /// `CURL_WRITEFUNC_PAUSE`: the write callback's "keep this chunk, and pause".
    static let pauseWrite = Int(CURL_WRITEFUNC_PAUSE)

    init(task: TransferTask, request: TransportRequest, delegate: any TransferDelegate, environment: TransportEnvironment) {
        self.task = task
        self.request = request
        self.delegate = delegate
        self.environment = environment
        policy = request.urlPolicy ?? environment.configuration.urlPolicy
        url = request.url
        scheme = request.url.scheme?.lowercased() ?? ""
        method = request.method
        headers = request.headers
        lifecycle = TransferState.StateMachine(timeouts: request.timeouts)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    var errorDetail: String { String(cString: errorBuffer) }

    /// A failure of this transfer, with the response it follows (the delivered head, or
    /// the hop's head so far) and the body bytes received, when there was one.
    func error(_ code: TransportError.Code, _ message: String) -> TransportError {
        let response = delivered ?? currentResponse()
        return TransportError(code, message, url: url, response: response, bytesReceived: response == nil ? nil : bodyBytes)
    }

    var isFileURL: Bool { scheme == "file" }

    /// The current hop's request: the transfer's, with the URL, method and headers a
    /// redirect gave this hop.
    var hopRequest: TransportRequest {
        var hop = request
        hop.url = url
        hop.method = method
        hop.headers = headers
        return hop
    }

    /// The transfer refused by its URL policy: `violation` says which rule.
    func refusal(_ violation: URLPolicyViolation) -> TransportError {
        var error = TransportError(.refusedByPolicy, violation.description, url: violation.url ?? url)
        error.policyViolation = violation
        return error
    }

    /// Whether the policy lets this hop connect to (or send on a connection to) the
    /// address; a refusal is kept for the hop's error.
    func mayConnect(to address: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let address = IPAddress(bytes: Array(address)) else { return false }
        guard let violation = policy.violation(for: address, url: url) else { return true }
        if policyViolation == nil { policyViolation = violation }
        return false
    }

    // MARK: Callbacks from libcurl (on the loop thread, inside curl_multi_perform)

    /// The hop has its connection (new or reused, TLS done) and its request goes out now.
    func requestReady() {
        loopThread?.assertOnLoop()
        hasConnection = true
        activity &+= 1
    }

    /// A header line. Returns the bytes taken; anything else aborts the transfer.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        loopThread?.assertOnLoop()
        if task.isCancelled { return 0 }
        activity &+= 1
        if awaitsStatusEvaluation, let refusal = refuseUnevaluatedConnection() {
            failure = refusal
            return 0
        }
        parser.consume(line)
        if parser.isOverLimit {
            failure = error(.malformedResponse, "the response head is over \(ResponseHeadParser.byteLimit) bytes")
            return 0
        }
        return line.count
    }

    /// Body bytes (decoded). Returns the bytes taken; anything else aborts the transfer,
    /// but for `CURL_WRITEFUNC_PAUSE`.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        loopThread?.assertOnLoop()
        let (cancelled, paused) = task.state
        if cancelled { return 0 }
        // Bytes wait here while bytes kept earlier do, so that they are delivered in order.
        let holding = !heldBody.isEmpty || (paused && holdsBodyWhilePaused)
        // Paused by a thread whose command the loop has not taken yet: libcurl keeps this
        // chunk and hands it over again when the transfer is unpaused, so no byte is
        // delivered after `pause()` returned, and none is lost.
        if paused, !holding { return Self.pauseWrite }
        activity &+= 1
        if case .headUndecided = reception { decideHead() }
        var body = bytes
        switch reception {
        case .delivering, .headUndecided:
            break
        case .skipping(let remaining):
            let skipped = Int(min(remaining, Int64(bytes.count)))
            reception = skipped == remaining ? .delivering : .skipping(remaining - Int64(skipped))
            guard skipped < bytes.count else { return bytes.count }
            body = UnsafeRawBufferPointer(rebasing: bytes[skipped...])
        case .discarding(let dropped):
            guard dropped + bytes.count <= Self.discardLimit else {
                reception = .cutOff
                return 0
            }
            reception = .discarding(dropped + bytes.count)
            return bytes.count
        case .cutOff:
            return 0
        }
        if holding { return hold(body) ? bytes.count : 0 }
        return deliverBody(body) ? bytes.count : 0
    }

    /// Whether a pause keeps this hop's body here rather than pausing the hop in libcurl:
    /// when the hop may be an HTTP/2 stream. libcurl before 8.1 (Debian 12 ships 7.88)
    /// does not hold an HTTP/2 server back when a stream pauses (the shrunk window never
    /// reaches it) and keeps what arrives in a buffer of up to 64 MiB, failing the
    /// transfer past that; here the bytes wait under a limit of our own.
    var holdsBodyWhilePaused: Bool {
        guard scheme == "https", request.preferredHTTPVersion != .http1_1 else { return false }
        let version = (parser.current ?? parser.lastComplete)?.httpVersion
        return version != .http1_0 && version != .http1_1
    }

    /// Keeps body bytes that arrived while paused; `false` cuts the hop off: over the
    /// body limit (``failure`` says so), or over the paused-body limit (the transfer
    /// stays paused and asks for the rest when resumed, see ``letGoWhilePaused``).
    private func hold(_ body: UnsafeRawBufferPointer) -> Bool {
        let received = bodyBytes + Int64(heldBody.count) + Int64(body.count)
        if let limit = request.maximumBodySize, received > limit {
            failure = error(.bodyTooLarge, "the body grew past \(limit) bytes")
            return false
        }
        guard heldBody.count + body.count <= environment.configuration.pausedBodyLimit else {
            letGoWhilePaused = true
            return false
        }
        heldBody.append(contentsOf: body)
        return true
    }

    /// Delivers the body kept while paused, in order. Stops early when the delegate paused
    /// the transfer again (the rest stays kept). `false` when the transfer must end:
    /// cancelled, or over its body limit (``failure``).
    func deliverHeldBody() -> Bool {
        var delivered = 0
        defer { heldBody.removeFirst(delivered) }
        while delivered < heldBody.count {
            let (cancelled, paused) = task.state
            if cancelled { return false }
            if paused { return true }
            let end = min(heldBody.count, delivered + Self.heldChunk)
            let taken = heldBody[delivered..<end].withUnsafeBytes { deliverBody($0) }
            guard taken else { return false }
            delivered = end
        }
        return true
    }

    /// Kept bytes go to the delegate in chunks of this size, as libcurl's would.
    private static let heldChunk = 64 * 1024

    /// Hands body bytes to the delegate; `false` past the body limit (``failure``).
    private func deliverBody(_ body: UnsafeRawBufferPointer) -> Bool {
        bodyBytes += Int64(body.count)
        if let limit = request.maximumBodySize, bodyBytes > limit {
            failure = error(.bodyTooLarge, "the body grew past \(limit) bytes")
            return false
        }
        let progress = TransferProgress(received: bodyBytes, expected: expectedLength)
        delegate.transfer(task, didReceive: body, progress: progress)
        if !environment.monitors.isEmpty {
            let (task, count) = (task, body.count)
            environment.monitors.emit { $0.transfer(task, didReceiveBytes: count, progress: progress) }
        }
        return true
    }

    /// How a transfer whose body was let go asks for the rest, or why it cannot.
    func planContinuation() -> Result<PausedContinuation, PausedContinuation.Refusal> {
        PausedContinuation.plan(after: delivered, method: method, offset: bodyBytes + Int64(heldBody.count))
    }

    /// Why the last hop of a continued transfer does not complete its body: an answer
    /// that had no body byte (so was never checked) and does not continue it, or fewer
    /// bytes than the first head announced.
    func continuationFailure(for response: TransportResponse) -> TransportError? {
        guard let continuation else { return nil }
        if reception == .headUndecided, case .failure(let refusal) = continuation.bytesToSkip(in: response) {
            return error(.cannotContinue, refusal.message)
        }
        if let expected = expectedLength, bodyBytes != expected {
            return error(.truncatedBody, "\(bodyBytes) of \(expected) bytes after the transfer was continued")
        }
        return nil
    }

    /// OpenSSL's certificate verification, during the handshake: the evaluator decides,
    /// unless it needed a revocation answer that has yet to be fetched (see
    /// ``revocationFetch``): then the handshake ends without a verdict.
    func evaluateTrust(storeContext: UnsafeMutableRawPointer) -> Bool {
        loopThread?.assertOnLoop()
        guard let evaluator else { return false }
        awaitsStatusEvaluation = false
        let online = revocationAnswers.map { OnlineRevocationContext(store: $0, now: Date()) }
        var trust = HandshakeServerTrust(
            host: url.host ?? "", port: RedirectPlanner.effectivePort(url) ?? 443,
            storeContext: storeContext, systemBundle: environment.systemBundle)
        trust.online = online
        var rejection: ServerTrustError?
        do { try evaluator.evaluate(trust) } catch { rejection = error }
        if let missing = online?.missing, Self.waitsForFetch(rejection) {
            revocationFetch = missing
            return false
        }
        if rejection != nil, rejection?.host == nil { rejection?.host = url.host }
        trustFailure = rejection
        if !environment.monitors.isEmpty {
            let (task, host) = (task, url.host ?? "")
            environment.monitors.emit { [rejection] in $0.transfer(task, didEvaluateServerTrustFor: host, error: rejection) }
            if rejection == nil, let reason = online?.softFailure {
                environment.monitors.emit { $0.transfer(task, didSoftFailRevocationFor: host, reason: reason) }
            }
        }
        return rejection == nil
    }

    /// Whether a missing fetched answer decides over the evaluator's verdict: when it
    /// passed, or failed only for want of a positive answer. A revoked certificate, an
    /// answer that does not verify and every other failure stand.
    private static func waitsForFetch(_ rejection: ServerTrustError?) -> Bool {
        guard let rejection else { return true }
        guard rejection.code == .revocationUnverified, let status = rejection.revocation?.status else { return false }
        if case .unverifiable = status { return false }
        return true
    }

    /// A response on a new connection whose deferred evaluation never ran: refused, so a
    /// handshake that skipped OpenSSL's status callback cannot pass unchecked. A reused
    /// connection was evaluated when it was made.
    private func refuseUnevaluatedConnection() -> TransportError? {
        awaitsStatusEvaluation = false
        guard let easy else { return nil }
        var connects = 0
        wi_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        guard connects > 0 else { return nil }
        return TransportError(
            .serverTrustFailed, "the server's certificate status was never evaluated during the handshake", url: url)
    }

    // MARK: Heads

    enum HeadDisposition {
        /// Delivered to the delegate; its body too.
        case deliver(TransportResponse)
        /// A redirect being followed (or failing).
        case redirect(Result<RedirectPlanner.Hop, TransportError>, TransportResponse)
        /// A 401 to put to the challenge handler.
        case challenge(TransportResponse)
        /// A status of 400 or above.
        case httpError(TransportResponse)
    }

    /// The head that counts for this hop: the last complete one; for `file:` URLs, which
    /// have none, a 200.
    func currentResponse() -> TransportResponse? {
        if isFileURL {
            var headers = HTTPHeaderFields()
            if let length = fileLength() { headers.add("Content-Length", String(length)) }
            return TransportResponse(url: url, statusCode: 200, headers: headers, httpVersion: nil)
        }
        guard let head = parser.lastComplete ?? parser.current else { return nil }
        return TransportResponse(url: url, statusCode: head.statusCode, headers: head.headers, httpVersion: head.httpVersion)
    }

    func disposition(of response: TransportResponse) -> HeadDisposition {
        if let hop = RedirectPlanner.nextHop(
            from: url, method: method, statusCode: response.statusCode, location: response.headers["Location"],
            policy: request.redirects, redirectsSoFar: redirectCount)
        {
            if case .success = hop, (parser.lastComplete ?? parser.current)?.locationHasRawBytes == true {
                return .redirect(
                    .failure(
                        TransportError(
                            .badRedirect, "the Location header holds raw non-ASCII bytes; not followed", url: url, response: response)),
                    response)
            }
            return .redirect(hop, response)
        }
        if response.statusCode == 401,
            environment.configuration.challengeHandler != nil || (authentication.mayOfferRequestCredential && request.credential != nil),
            response.headers.contains("WWW-Authenticate")
        {
            return .challenge(response)
        }
        if response.statusCode >= 400 { return .httpError(response) }
        return .deliver(response)
    }

    /// What a hop does with body bytes, decided at the first one.
    enum Reception: Equatable {
        /// No body byte yet.
        case headUndecided
        /// The body goes to the delegate.
        case delivering
        /// The answer to a continuation repeats this many bytes the transfer has already
        /// (a 200 of the same representation): they are dropped, the rest delivered.
        case skipping(Int64)
        /// The body is not for the delegate (a redirect, a 401 being answered, an error
        /// status): read and dropped so the connection can be kept; this many so far.
        case discarding(Int)
        /// A dropped body grew past ``TransferState/discardLimit`` and was cut off.
        case cutOff
    }

    /// At the first body byte: deliver the head, or mark the body as one to drop. The
    /// answer to a continuation is checked instead (its head was delivered before).
    func decideHead() {
        reception = .delivering
        guard let response = currentResponse() else { return }
        if let continuation, (200..<300).contains(response.statusCode) {
            switch continuation.bytesToSkip(in: response) {
            case .success(let skip):
                if skip > 0 { reception = .skipping(skip) }
            case .failure(let refusal):
                failure = error(.cannotContinue, refusal.message)
                reception = .cutOff
            }
            return
        }
        if case .deliver = disposition(of: response) {
            deliver(response)
        } else {
            reception = .discarding(0)
        }
    }

    func deliver(_ response: TransportResponse) {
        delivered = response
        expectedLength = response.expectedBodyLength
        delegate.transfer(task, didReceive: response)
        if !environment.monitors.isEmpty {
            let task = task
            environment.monitors.emit { $0.transfer(task, didReceive: response) }
        }
    }

    /// Every byte the hop's connection has received (head, body, chunk framing), when
    /// that speaks for this transfer alone: not over HTTP/2, where streams share the
    /// connection (there the stream's own header and body bytes count).
    /// `mayMultiplex`: the hop's lane may share its connection (read by the caller, as
    /// this runs inside a transition of ``lifecycle``).
    func connectionBytesReceived(mayMultiplex: Bool) -> Int64? {
        guard let easy, !isFileURL else { return nil }
        let version = (parser.current ?? parser.lastComplete)?.httpVersion
        if version == .http2 || version == .http3 { return nil }
        if version == nil, mayMultiplex { return nil }
        let bytes = wi_easy_connection_bytes_received(easy)
        return bytes >= 0 ? bytes : nil
    }

    private func fileLength() -> Int64? {
        guard let easy else { return nil }
        var length: curl_off_t = -1
        wi_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return length >= 0 ? Int64(length) : nil
    }

    /// Prepares for the next hop of the same transfer.
    func resetForNextHop() {
        parser.reset()
        hasConnection = isFileURL
        reception = .headUndecided
        trustFailure = nil
        revocationFetch = nil
        evaluator = nil
        awaitsStatusEvaluation = false
        policyViolation = nil
        errorBuffer[0] = 0
    }
}

extension TransferState: SlotScheduled {}
