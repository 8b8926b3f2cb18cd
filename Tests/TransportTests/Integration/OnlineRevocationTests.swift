import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageSecurity
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency

/// Online revocation against `openssl ocsp` as the leaf's responder and nginx serving its
/// CRL, both on loopback and named by certificates made at test time: the transport ends
/// the handshake that lacks an answer, fetches it, verifies it, caches it, and connects
/// again; no request byte reaches a server whose certificate is revoked.
@Suite(
    "Online revocation: the leaf's OCSP responder and CRL distribution point, asked between two handshakes",
    .enabled(if: RevocationPKI.isAvailable, Comment(rawValue: RevocationPKI.missingMessage ?? "")), .serialized)
struct OnlineRevocationTests {
    let pki: OnlineRevocationPKI

    init() throws {
        pki = try OnlineRevocationPKI()
    }

    private func evaluator(
        _ online: OnlineRevocation = OnlineRevocation(), options: RevocationTrustEvaluator.Options = [.ocsp]
    ) throws -> RevocationTrustEvaluator {
        RevocationTrustEvaluator(options: options, anchors: .custom([Certificate(derBytes: try pki.rootCertificate())]), online: online)
    }

    private func transport(
        _ evaluator: RevocationTrustEvaluator, monitor: RevocationMonitor? = nil, cacheCapacity: Int = 256
    ) -> CurlTransport {
        var configuration = TransportConfiguration(
            trustPolicy: ServerTrustManager(evaluators: ["127.0.0.1": evaluator]), eventMonitors: monitor.map { [$0] } ?? [])
        configuration.revocationCacheCapacity = cacheCapacity
        return CurlTransport(configuration: configuration)
    }

    private func server(_ name: String, keepsConnections: Bool = true) throws -> StaplingServer {
        try StaplingServer(
            chain: pki.url("\(name).chain.pem"), key: pki.url("\(name).key"), stapling: nil, keepsConnections: keepsConnections)
    }

    @Test(
        "a good certificate's responder is asked once, and the image loads", arguments: [[.ocsp], []] as [RevocationTrustEvaluator.Options])
    func goodByResponder(options: RevocationTrustEvaluator.Options) async throws {
        let server = try server("good")
        defer { server.stop() }
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(options: options), monitor: monitor)
        #expect(await transferError(transport, TransportRequest(url: server.url)) == nil)
        await transport.shutdown()
        #expect(monitor.fetches.map(\.outcome) == [.answered(.good)])
        #expect(monitor.fetches.first?.source == .ocspResponder)
        #expect(monitor.softFailures.isEmpty)
        pki.stop()
        server.stop()
        #expect(pki.responderRequests == 1)
        #expect(server.requests.count == 1)
    }

    @Test("a revoked certificate fails with the responder's answer, and its server receives no request")
    func revokedByResponder() async throws {
        let server = try server("revoked")
        defer { server.stop() }
        let transport = transport(try evaluator())
        let error = await transferError(transport, TransportRequest(url: server.url))
        await transport.shutdown()
        #expect(error?.code == .serverTrustFailed)
        #expect(error?.trustFailure?.code == .revoked)
        let revocation = try #require(error?.trustFailure?.revocation)
        #expect(revocation.source == .ocspResponder)
        #expect(revocation.subject.contains("revoked server"))
        guard case .revoked(let reason, _) = revocation.status else {
            Issue.record("expected revoked, got \(revocation.status)")
            return
        }
        #expect(reason == "keyCompromise")
        server.stop()
        #expect(server.requests.isEmpty)
    }

    @Test("from the CRL distribution point: the good certificate loads, the revoked one fails")
    func byDistributionPoint() async throws {
        let online = OnlineRevocation(sources: [.crlDistributionPoint])
        let good = try server("good")
        defer { good.stop() }
        let revoked = try server("revoked")
        defer { revoked.stop() }
        let transport = transport(try evaluator(online, options: []))
        #expect(await transferError(transport, TransportRequest(url: good.url)) == nil)
        let error = await transferError(transport, TransportRequest(url: revoked.url))
        await transport.shutdown()
        #expect(error?.trustFailure?.code == .revoked)
        #expect(error?.trustFailure?.revocation?.source == .crlDistributionPoint)
        pki.stop()
        #expect(pki.requestedPaths == ["/inter.crl"], "one download answers both certificates of the issuer")
        revoked.stop()
        #expect(revoked.requests.isEmpty)
    }

    @Test("soft-fail: with no responder listening the image loads, and monitors hear why")
    func unreachableSoftFails() async throws {
        let server = try server("down")
        defer { server.stop() }
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(), monitor: monitor)
        #expect(await transferError(transport, TransportRequest(url: server.url)) == nil)
        await transport.shutdown()
        #expect(monitor.fetches.map(\.source) == [.ocspResponder, .crlDistributionPoint])
        #expect(monitor.fetches.allSatisfy { if case .unreachable = $0.outcome { true } else { false } })
        #expect(monitor.softFailures.count == 1)
        #expect(monitor.softFailures.first?.contains("could not be reached") == true)
        server.stop()
        #expect(server.requests.count == 1)
    }

    @Test("hard-fail: with no responder listening the handshake fails as unverified")
    func unreachableHardFails() async throws {
        let server = try server("down")
        defer { server.stop() }
        let transport = transport(try evaluator(OnlineRevocation(whenUnreachable: .hardFail)))
        let error = await transferError(transport, TransportRequest(url: server.url))
        await transport.shutdown()
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.message.contains("could not be reached") == true)
        server.stop()
        #expect(server.requests.isEmpty)
    }

    @Test("hard-fail: an unreachable responder falls back to the distribution point, which answers")
    func fallsBackToDistributionPoint() async throws {
        let server = try server("downThenList")
        defer { server.stop() }
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(OnlineRevocation(whenUnreachable: .hardFail)), monitor: monitor)
        #expect(await transferError(transport, TransportRequest(url: server.url)) == nil)
        await transport.shutdown()
        #expect(monitor.fetches.map(\.source) == [.ocspResponder, .crlDistributionPoint])
        #expect(monitor.fetches.last?.outcome == .answered(.good))
    }

    @Test(
        "a transfer cancelled while its answer is fetched ends at once; the fetch runs on, and its outcome serves the next handshake"
    )
    func cancelledDuringFetch() async throws {
        let server = try server("held")
        defer { server.stop() }
        let held = pki.held
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(), monitor: monitor)
        let transfer = Task { await transferError(transport, TransportRequest(url: server.url)) }
        await held.signal.wait { held.connectionCount == 1 }
        transfer.cancel()
        let error = await transfer.value
        #expect(error?.code == .cancelled)
        #expect(held.openCount == 1, "the fetch is still under way: the cancel did not wait for it")
        #expect(monitor.fetches.isEmpty)
        // The responder hangs up: the fetch ends unreachable, kept as such for a while.
        held.closeAll()
        #expect(await transferError(transport, TransportRequest(url: server.url)) == nil, "soft-fail on the kept outcome")
        await transport.shutdown()
        #expect(held.connectionCount == 1, "the next handshake asked no one")
        #expect(monitor.softFailures.count == 1)
        server.stop()
        #expect(server.requests.count == 1, "the cancelled transfer never reached the server")
    }

    @Test("the cached answer serves the next handshake: the responder is asked once for two connections")
    func cachedUntilNextUpdate() async throws {
        let server = try server("good", keepsConnections: false)
        defer { server.stop() }
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(), monitor: monitor)
        let first = try await transport.data(for: TransportRequest(url: server.url))
        let second = try await transport.data(for: TransportRequest(url: server.url))
        await transport.shutdown()
        #expect(second.metrics.transactions.last?.reusedConnection == false, "the second transfer made a handshake of its own")
        #expect(first.metrics.transactions.count == 2, "the first connected twice: before and after the fetch")
        #expect(second.metrics.transactions.count == 1)
        #expect(monitor.fetches.count == 1)
        pki.stop()
        server.stop()
        #expect(pki.responderRequests == 1)
        #expect(server.requests.count == 2)
    }

    @Test("transfers that need the same answer at once make one request to the responder, and all load")
    func oneFetchForMany() async throws {
        let server = try server("good", keepsConnections: false)
        defer { server.stop() }
        let transport = transport(try evaluator())
        let request = TransportRequest(url: server.url, preferredHTTPVersion: .http1_1)
        async let first = transferError(transport, request)
        async let second = transferError(transport, request)
        async let third = transferError(transport, request)
        let errors = await [first, second, third]
        await transport.shutdown()
        #expect(errors.allSatisfy { $0 == nil })
        pki.stop()
        server.stop()
        #expect(pki.responderRequests == 1)
        #expect(server.requests.count == 3)
    }

    @Test("with no room to keep the fetched answer, the retry fails as unverified rather than fetching again")
    func noRoomForTheAnswer() async throws {
        let server = try server("good")
        defer { server.stop() }
        let transport = transport(try evaluator(), cacheCapacity: 0)
        let error = await transferError(transport, TransportRequest(url: server.url))
        await transport.shutdown()
        #expect(error?.trustFailure?.code == .revocationUnverified)
        pki.stop()
        server.stop()
        #expect(pki.responderRequests == 1, "asked once, not in a loop")
        #expect(server.requests.isEmpty)
    }

    @Test(
        "a hostile responder's answer (garbage, signed by another key, expired) fails as unverified under soft-fail too",
        arguments: ["garbage", "forged", "expired"])
    func hostileAnswer(name: String) async throws {
        guard pki.exists("expired.ocsp.der") || name != "expired" else {
            print("faketime not found (apt-get install faketime): expired OCSP case skipped")
            return
        }
        let server = try server(name)
        defer { server.stop() }
        let monitor = RevocationMonitor()
        let transport = transport(try evaluator(), monitor: monitor)
        let error = await transferError(transport, TransportRequest(url: server.url))
        await transport.shutdown()
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.revocation?.source == .ocspResponder)
        #expect(monitor.fetches.count == 1)
        #expect(monitor.fetches.allSatisfy { if case .unusable = $0.outcome { true } else { false } })
        server.stop()
        #expect(server.requests.isEmpty)
    }
}

/// Records the online revocation events, on the transport's thread.
final class RevocationMonitor: TransportEventMonitor {
    var delivery: CallbackDelivery { .immediate }
    private let recorded = Locked<(fetches: [RevocationFetchReport], softFailures: [String])>(([], []))
    var fetches: [RevocationFetchReport] { recorded.withLock { $0.fetches } }
    var softFailures: [String] { recorded.withLock { $0.softFailures } }

    func transfer(_ task: TransferTask, didFetchRevocation report: RevocationFetchReport) {
        recorded.withLock { $0.fetches.append(report) }
    }

    func transfer(_ task: TransferTask, didSoftFailRevocationFor host: String, reason: String) {
        recorded.withLock { $0.softFailures.append(reason) }
    }
}
