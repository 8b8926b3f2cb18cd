import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A real HTTP/1.1 (and, over TLS, HTTP/2) server on 127.0.0.1 for tests, benchmarks
/// and tools, on SwiftNIO with one event-loop thread of its own.
///
/// ```swift
/// let server = try await LoopbackServer.start()
/// defer { Task { try? await server.shutdown() } }
/// let url = server.url("/bytes/1024")        // http://127.0.0.1:PORT/bytes/1024
/// ```
///
/// The routes are listed in Tools/TestSupport/TestServer/README.md.
public final class LoopbackServer: Sendable {
    public struct Configuration: Sendable {
        /// The server's certificate and key; nil serves plain HTTP/1.1.
        public var tls: TestIdentity?
        /// Non-nil (with `tls`): every client must present a certificate that this CA
        /// issued, or the TLS handshake fails.
        public var clientCertificateAuthority: TestCertificateAuthority?
        /// Files served under /files/.
        public var documentRoot: URL?
        /// With `tls`: ALPN offers h2 and http/1.1 (false: http/1.1 only).
        public var http2: Bool
        /// Whether `requests` records anything. A benchmark that pushes millions of
        /// requests through turns it off (or calls `resetRecords()` between rounds):
        /// every record is kept until then.
        public var recordsRequests: Bool
        /// The port to listen on; 0 (the default) picks a free one, as tests want.
        public var port: Int

        public init(
            tls: TestIdentity? = nil,
            clientCertificateAuthority: TestCertificateAuthority? = nil,
            documentRoot: URL? = nil,
            http2: Bool = true,
            recordsRequests: Bool = true,
            port: Int = 0
        ) {
            self.tls = tls
            self.clientCertificateAuthority = clientCertificateAuthority
            self.documentRoot = documentRoot
            self.http2 = http2
            self.recordsRequests = recordsRequests
            self.port = port
        }
    }

    let core: ServerCore
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let isShutdown = NIOLockedValueBox(false)

    /// The TCP port the server listens on (127.0.0.1).
    public let port: Int
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: URL

    private init(core: ServerCore, group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int) {
        self.core = core
        self.group = group
        self.channel = channel
        self.port = port
        self.baseURL = URL(string: core.baseURLString)!
    }

    /// Binds 127.0.0.1 on the configured port (an ephemeral one by default) and starts serving.
    public static func start(_ configuration: Configuration = .init()) async throws -> LoopbackServer {
        let sslContext: NIOSSLContext?
        if let identity = configuration.tls {
            sslContext = try makeSSLContext(identity: identity, configuration: configuration)
        } else {
            sslContext = nil
        }
        let core = ServerCore(
            scheme: sslContext == nil ? "http" : "https",
            sslContext: sslContext,
            http2: configuration.http2,
            documentRoot: configuration.documentRoot?.standardizedFileURL,
            recordsRequests: configuration.recordsRequests
        )
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.backlog, value: 512)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 128 * 1024, high: 256 * 1024))
                .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: false)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try core.configureConnection(channel)
                    }.flatMap { $0 }
                }
                .bind(host: "127.0.0.1", port: configuration.port)
                .get()
            guard let port = channel.localAddress?.port else {
                throw TestCertificateError(message: "the server channel has no port")
            }
            core.setBaseURL("\(core.scheme)://127.0.0.1:\(port)")
            return LoopbackServer(core: core, group: group, channel: channel, port: port)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private static func makeSSLContext(identity: TestIdentity, configuration: Configuration) throws -> NIOSSLContext {
        let chain = try identity.chainDER.map { NIOSSLCertificateSource.certificate(try NIOSSLCertificate(bytes: $0, format: .der)) }
        let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        tls.applicationProtocols = configuration.http2 ? ["h2", "http/1.1"] : ["http/1.1"]
        if let clientCA = configuration.clientCertificateAuthority {
            // A server verifies a client's certificate only when told to, and then
            // requires one. Client certificates name no host: no hostname check.
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: clientCA.certificateDER, format: .der)])
            tls.sendCANameList = true
        }
        return try NIOSSLContext(configuration: tls)
    }

    /// `baseURL` + `pathAndQuery` ("/status/404", "/redirect/3?absolute=1"); a missing
    /// leading slash is added.
    public func url(_ pathAndQuery: String) -> URL {
        let separator = pathAndQuery.hasPrefix("/") ? "" : "/"
        guard let url = URL(string: self.core.baseURLString + separator + pathAndQuery) else {
            preconditionFailure("not a valid path and query: \(pathAndQuery)")
        }
        return url
    }

    /// Every request that reached HTTP since start (or the last `resetRecords()`), in
    /// the order their heads arrived (empty when `recordsRequests` is off).
    public var requests: [RecordedRequest] { self.core.state.withLockedValue { $0.requests } }
    /// Returns once `count` requests have been recorded since start (or the last
    /// `resetRecords()`), so that a test awaits the server instead of polling it. Needs
    /// `recordsRequests`; give the test a time limit.
    public func requestsArrived(_ count: Int = 1) async {
        await waitUntil(count, \.requests.count, \.requestWaiters)
    }

    /// Returns once `count` TLS handshakes have failed since start (or the last
    /// `resetRecords()`): the server may notice a refused client after the client exits.
    public func handshakeFailuresArrived(_ count: Int) async {
        await waitUntil(count, \.handshakeFailures, \.handshakeWaiters)
    }

    private func waitUntil(
        _ count: Int, _ counter: KeyPath<ServerCore.State, Int>, _ waiters: WritableKeyPath<ServerCore.State, CountWaiters>
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = self.core.state.withLockedValue { state -> Bool in
                if state[keyPath: counter] >= count { return true }
                state[keyPath: waiters].add(continuation, until: count)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Opens the gate `name`: every `/gate/<name>` response sends the rest of its body,
    /// and later ones send theirs whole. A test holds a body mid-way this way for as long
    /// as it needs, however slowly the machine runs it.
    public func openGate(_ name: String) {
        self.core.openGate(name)
    }

    /// TCP connections accepted, TLS handshake failures included.
    public var connectionCount: Int { self.core.state.withLockedValue { $0.connectionCount } }
    /// TLS connections that ended (error or close) before their handshake completed.
    public var tlsHandshakeFailures: Int { self.core.state.withLockedValue { $0.handshakeFailures } }

    /// Forgets the recorded requests and zeroes the counters. Connection IDs go on
    /// counting, so they stay unique.
    public func resetRecords() {
        self.core.state.withLockedValue {
            $0.requests.removeAll(keepingCapacity: true)
            $0.connectionCount = 0
            $0.handshakeFailures = 0
        }
    }

    /// Starts a server, runs `body` with it, and shuts it down whether `body` returns or
    /// throws: one server per test.
    public static func withServer<R>(
        _ configuration: Configuration = .init(),
        _ body: (LoopbackServer) async throws -> R
    ) async throws -> R {
        let server = try await start(configuration)
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// Closes the listening socket and every connection, and stops the event loop.
    /// Calling it again does nothing.
    public func shutdown() async throws {
        let first = self.isShutdown.withLockedValue { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        try? await self.channel.close()
        try await self.group.shutdownGracefully()
    }

    deinit {
        let first = self.isShutdown.withLockedValue { done in
            defer { done = true }
            return !done
        }
        if first {
            self.channel.close(promise: nil)
            self.group.shutdownGracefully { _ in }
        }
    }
}
