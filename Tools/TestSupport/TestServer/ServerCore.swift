import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import NIOTLS
import SwiftASN1
import X509

/// What every connection of one server shares: configuration, the records, and the
/// bytes the pattern routes send.
final class ServerCore: Sendable {
    struct State {
        var requests: [RecordedRequest] = []
        var connectionCount = 0
        var handshakeFailures = 0
        var nextConnectionID = 1
        /// Tests awaiting a number of recorded requests (``LoopbackServer/requestsArrived(_:)``).
        var requestWaiters = CountWaiters()
        /// Tests awaiting a number of failed handshakes.
        var handshakeWaiters = CountWaiters()
    }

    let scheme: String
    let sslContext: NIOSSLContext?
    let http2: Bool
    let documentRoot: URL?
    let recordsRequests: Bool
    let state = NIOLockedValueBox(State())
    /// Requests seen per /flaky/<name>.
    let flakyCounts = NIOLockedValueBox([String: Int]())
    /// Requests seen per /range/<name>.
    let rangeCounts = NIOLockedValueBox([String: Int]())
    /// Digest nonces this server handed out.
    let digestNonces = NIOLockedValueBox(Set<String>())
    private let baseURL = NIOLockedValueBox("")
    /// Per /gate/<name>: opened, or the responses waiting for it to open.
    private let gates = NIOLockedValueBox([String: Gate]())

    enum Gate {
        case closed(waiting: [@Sendable () -> Void])
        case open
    }

    /// `patternChunk + 251` bytes with byte i = i % 251: any run of up to `patternChunk`
    /// pattern bytes starting at offset o is the slice at o % 251 (no copy).
    let pattern: ByteBuffer
    static let patternChunk = 64 * 1024

    init(scheme: String, sslContext: NIOSSLContext?, http2: Bool, documentRoot: URL?, recordsRequests: Bool) {
        self.recordsRequests = recordsRequests
        self.scheme = scheme
        self.sslContext = sslContext
        self.http2 = http2
        self.documentRoot = documentRoot
        var buffer = ByteBufferAllocator().buffer(capacity: Self.patternChunk + 251)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.patternChunk + 251) { raw in
            for i in 0..<(Self.patternChunk + 251) { raw[i] = UInt8(truncatingIfNeeded: i % 251) }
            return Self.patternChunk + 251
        }
        self.pattern = buffer
    }

    /// Runs `action` once `name` is opened: at once when it already is.
    func whenGateOpens(_ name: String, _ action: @escaping @Sendable () -> Void) {
        let runNow = self.gates.withLockedValue { gates -> Bool in
            switch gates[name] {
            case .open: return true
            case .closed(let waiting): gates[name] = .closed(waiting: waiting + [action])
            case nil: gates[name] = .closed(waiting: [action])
            }
            return false
        }
        if runNow { action() }
    }

    /// Opens `name`: the responses waiting for it go on, and later ones do not wait.
    func openGate(_ name: String) {
        let waiting = self.gates.withLockedValue { gates -> [@Sendable () -> Void] in
            defer { gates[name] = .open }
            if case .closed(let waiting) = gates[name] { return waiting }
            return []
        }
        for action in waiting { action() }
    }

    var baseURLString: String { self.baseURL.withLockedValue { $0 } }
    func setBaseURL(_ string: String) { self.baseURL.withLockedValue { $0 = string } }

    /// `length` (at most `patternChunk`) pattern bytes starting at stream offset `offset`.
    @inline(__always)
    func patternSlice(offset: Int, length: Int) -> ByteBuffer {
        self.pattern.getSlice(at: offset % 251, length: length)!
    }

    func record(_ request: RecordedRequest) {
        let ready = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.requests.append(request)
            return state.requestWaiters.reached(state.requests.count)
        }
        for waiter in ready { waiter.resume() }
    }

    func handshakeFailed() {
        let ready = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.handshakeFailures += 1
            return state.handshakeWaiters.reached(state.handshakeFailures)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Sets up a freshly accepted connection's pipeline.
    func configureConnection(_ channel: any Channel) throws -> EventLoopFuture<Void> {
        let id = self.state.withLockedValue { state in
            state.connectionCount += 1
            defer { state.nextConnectionID += 1 }
            return state.nextConnectionID
        }
        let connection = ConnectionInfo(id: id)
        let sync = channel.pipeline.syncOperations
        guard let sslContext else {
            try self.configureHTTP1(sync, connection: connection)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        try sync.addHandler(NIOSSLServerHandler(context: sslContext))
        try sync.addHandler(TLSObserver(core: self, connection: connection))
        guard self.http2 else {
            try self.configureHTTP1(sync, connection: connection)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        return channel.configureHTTP2SecureUpgrade(
            h2ChannelConfigurator: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.configureHTTP2(channel.pipeline.syncOperations, connection: connection)
                }
            },
            http1ChannelConfigurator: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.configureHTTP1(channel.pipeline.syncOperations, connection: connection)
                }
            }
        )
    }

    private func configureHTTP1(_ sync: ChannelPipeline.SynchronousOperations, connection: ConnectionInfo) throws {
        try sync.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
        try sync.addHandler(HTTPHandler(core: self, connection: connection, isHTTP2: false))
    }

    private func configureHTTP2(_ sync: ChannelPipeline.SynchronousOperations, connection: ConnectionInfo) throws {
        var connectionConfiguration = NIOHTTP2Handler.ConnectionConfiguration()
        // /length-mismatch sends fewer bytes than its content-length on purpose.
        connectionConfiguration.contentLengthValidation = .disabled
        _ = try sync.configureHTTP2Pipeline(
            mode: .server,
            connectionConfiguration: connectionConfiguration,
            streamConfiguration: NIOHTTP2Handler.StreamConfiguration(),
            inboundStreamInitializer: { stream in
                stream.eventLoop.makeCompletedFuture {
                    let streamSync = stream.pipeline.syncOperations
                    try streamSync.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                    try streamSync.addHandler(HTTPHandler(core: self, connection: connection, isHTTP2: true))
                }
            }
        )
    }
}

/// One TCP connection: its ID and what its TLS handshake told.
final class ConnectionInfo: Sendable {
    let id: Int
    private let peerCommonName = NIOLockedValueBox<String?>(nil)
    private let pendingNTLMChallenge = NIOLockedValueBox<[UInt8]?>(nil)
    private let authenticatedNTLMUser = NIOLockedValueBox<String?>(nil)

    init(id: Int) { self.id = id }

    /// The subject CN of the client certificate, when the client presented one.
    var clientCommonName: String? {
        get { self.peerCommonName.withLockedValue { $0 } }
        set { self.peerCommonName.withLockedValue { $0 = newValue } }
    }

    /// The NTLM server challenge this connection was given and has not yet answered
    /// (NTLM authenticates a connection: another connection cannot answer it).
    var ntlmChallenge: [UInt8]? {
        get { self.pendingNTLMChallenge.withLockedValue { $0 } }
        set { self.pendingNTLMChallenge.withLockedValue { $0 = newValue } }
    }

    /// The user (as the route names it) an NTLM handshake on this connection proved.
    var ntlmUser: String? {
        get { self.authenticatedNTLMUser.withLockedValue { $0 } }
        set { self.authenticatedNTLMUser.withLockedValue { $0 = newValue } }
    }
}

/// Sits after the TLS handler until the handshake completes: counts handshakes that
/// fail (an error, or the connection ending first) and notes the client certificate.
/// It takes itself out of the pipeline once the handshake is done.
final class TLSObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let core: ServerCore
    private let connection: ConnectionInfo
    private var settled = false

    init(core: ServerCore, connection: ConnectionInfo) {
        self.core = core
        self.connection = connection
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event, !self.settled {
            self.settled = true
            if let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self),
                let peer = handler.peerCertificate,
                let certificate = try? Certificate(derEncoded: peer.toDERBytes())
            {
                self.connection.clientCommonName = Self.commonName(of: certificate.subject)
            }
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail()
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.fail()
        context.fireChannelInactive()
    }

    private func fail() {
        guard !self.settled else { return }
        self.settled = true
        self.core.handshakeFailed()
    }

    static func commonName(of name: DistinguishedName) -> String? {
        for rdn in name.reversed() {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return String(attribute.value) ?? attribute.value.description
            }
        }
        return nil
    }
}
