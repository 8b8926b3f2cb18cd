import Foundation
import Testing
import WebImageCallbackRegistry
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageCore

@Suite("NotificationBroadcaster: a real transport's invalidation", .timeLimit(.minutes(1)))
struct TransportNotificationTests {
    @Test("shutting a transport down under a held transfer posts its completion with invalidated, then the invalidation")
    func invalidation() async throws {
        try await withServer { server in
            let log = NotificationLog([.webImageTransferDidComplete, .webImageTransportDidInvalidate])
            let transport = CurlTransport()
            transport.addEventMonitor(NotificationBroadcaster(center: log.center))
            var request = TransportRequest(url: server.url("/gate/invalidate?bytes=10000&first=100"))
            request.timeouts = .init(connect: nil, total: nil, stall: nil)
            let held = Task { await transferError(transport, request) }
            // The server has the request, and holds its body at the gate.
            await server.requestsArrived(1)

            await transport.shutdown()
            #expect(await held.value?.code == .invalidated)
            await log.wait(for: .webImageTransportDidInvalidate)
            let notes = log.all
            #expect(notes.map(\.name) == [.webImageTransferDidComplete, .webImageTransportDidInvalidate])
            #expect(notes[0].info[WebImageNotificationKey.error.rawValue]?.hasPrefix("invalidated") == true)
            #expect(notes[1].info[WebImageNotificationKey.transferCount.rawValue] == "1")
            #expect(!notes[1].isTaskObject)
        }
    }
}

/// The error a transfer failed with, or `nil` when it succeeded.
private func transferError(_ transport: CurlTransport, _ request: TransportRequest) async -> TransportError? {
    do {
        _ = try await transport.data(for: request)
        return nil
    } catch {
        return error
    }
}
