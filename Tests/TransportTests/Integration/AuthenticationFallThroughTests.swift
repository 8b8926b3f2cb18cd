import Foundation
import Synchronization
import Testing
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Authentication: falling through to the server's next scheme, on the wire", .timeLimit(.minutes(1)))
struct AuthenticationFallThroughTests {
    @Test("a handler that rejects the strongest scheme is asked the next one the server offered, whose answer lets it in")
    func fallsThroughToBasic() async throws {
        try await withServer { server in
            let handler = SchemeChooser(accepting: .basic, credential: Credential(user: "ann", password: "secret"))
            let transport = CurlTransport(configuration: .init(challengeHandler: handler))
            let fetched = try await transport.data(for: TransportRequest(url: server.url("/any-auth/ann/secret")))
            #expect(String(decoding: fetched.data, as: UTF8.self) == "authenticated ann")
            #expect(handler.asked == [.digest, .basic])
            let authorizations = server.requests.map { $0.header("Authorization") }
            #expect(authorizations.count == 2)
            #expect(authorizations.first == .some(nil))
            #expect(authorizations.last??.hasPrefix("Basic ") == true)
            await transport.shutdown()
        }
    }

    @Test("with every offered scheme rejected the transfer fails as authenticationFailed, the 401 kept")
    func nothingLeft() async throws {
        try await withServer { server in
            let handler = SchemeChooser(accepting: nil, credential: Credential(user: "ann", password: "secret"))
            let transport = CurlTransport(configuration: .init(challengeHandler: handler))
            let error = await transferError(transport, TransportRequest(url: server.url("/any-auth/ann/secret")))
            #expect(error?.code == .authenticationFailed, "\(String(describing: error))")
            #expect(error?.statusCode == 401)
            #expect(handler.asked == [.digest, .basic])
            #expect(server.requests.count == 1)
            await transport.shutdown()
        }
    }
}

/// Rejects the protection space of every scheme but `accepting`, which it answers with
/// `credential`; keeps the schemes it was asked about, in order.
private final class SchemeChooser: AuthenticationChallengeHandling {
    private let accepting: AuthenticationMethod?
    private let credential: Credential
    private let methods = Locked<[AuthenticationMethod]>([])
    var asked: [AuthenticationMethod] { methods.withLock { $0 } }

    init(accepting: AuthenticationMethod?, credential: Credential) {
        self.accepting = accepting
        self.credential = credential
    }

    func handle(_ challenge: AuthenticationChallenge) async -> ChallengeDisposition {
        let method = challenge.protectionSpace.method
        methods.withLock { $0.append(method) }
        return method == accepting ? .useCredential(credential) : .rejectProtectionSpace
    }
}
