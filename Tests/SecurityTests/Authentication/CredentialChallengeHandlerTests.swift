import Foundation
import Synchronization
import Testing
import WebImageSecurity

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("CredentialChallengeHandler: which answer to a 401")
struct CredentialChallengeHandlerTests {
    let alice = Credential(user: "alice", password: "a")
    let bob = Credential(user: "bob", password: "b")

    func challenge(
        _ method: AuthenticationMethod = .basic, host: String = "images.example.com", failures: Int = 0, proposed: Credential? = nil
    ) -> AuthenticationChallenge {
        let url = URL(string: "https://\(host)/photo.jpg")!
        return AuthenticationChallenge(
            protectionSpace: ProtectionSpace(scheme: "https", host: host, port: 443, realm: "photos", method: method),
            previousFailureCount: failures,
            failureResponse: TransportResponse(
                url: url, statusCode: 401, headers: ["WWW-Authenticate": "\(method) realm=\"photos\""], httpVersion: .http1_1),
            proposedCredential: proposed
        )
    }

    @Test("the first time, the store's credential for the space is used")
    func firstTime() async {
        let store = CredentialStore()
        store.setDefault(alice, forHost: "images.example.com", port: 443)
        let handler = CredentialChallengeHandler(store: store)
        #expect(await handler.handle(challenge()) == .useCredential(alice))
        #expect(await handler.handle(challenge(.digest)) == .useCredential(alice))
    }

    @Test("the fixed credential is used instead of the store's, for every space")
    func fixedCredential() async {
        let store = CredentialStore()
        store.setDefault(alice)
        let handler = CredentialChallengeHandler(store: store, credential: bob)
        #expect(await handler.handle(challenge()) == .useCredential(bob))
        #expect(await handler.handle(challenge(host: "other.org")) == .useCredential(bob))
    }

    @Test("after a refusal, default handling: the transfer fails with the 401, the credential is not offered again")
    func afterFailure() async {
        let store = CredentialStore()
        store.setDefault(alice)
        for handler in [CredentialChallengeHandler(store: store), CredentialChallengeHandler(credential: bob)] {
            #expect(await handler.handle(challenge(failures: 1, proposed: alice)) == .performDefaultHandling)
            #expect(await handler.handle(challenge(failures: 2)) == .performDefaultHandling)
        }
    }

    @Test("nothing stored: default handling")
    func nothingStored() async {
        #expect(await CredentialChallengeHandler().handle(challenge()) == .performDefaultHandling)
    }

    @Test("a scheme the transport cannot answer is rejected, so the next one is tried")
    func otherSchemes() async {
        let handler = CredentialChallengeHandler(credential: alice)
        #expect(await handler.handle(challenge(.other("Bearer"))) == .rejectProtectionSpace)
        #expect(await handler.handle(challenge(.other("Newauth"), failures: 1)) == .rejectProtectionSpace)
    }

    @Test("NTLM is answered with a password; Negotiate only with the Kerberos ticket cache")
    func ntlmAndNegotiate() async {
        let password = CredentialChallengeHandler(credential: alice)
        #expect(await password.handle(challenge(.ntlm)) == .useCredential(alice))
        #expect(await password.handle(challenge(.negotiate)) == .rejectProtectionSpace, "a password cannot answer Negotiate")

        let kerberos = CredentialChallengeHandler(credential: .kerberosTicketCache)
        #expect(await kerberos.handle(challenge(.negotiate)) == .useCredential(.kerberosTicketCache))
        #expect(await kerberos.handle(challenge(.basic)) == .rejectProtectionSpace, "tickets answer Negotiate only")
        #expect(
            await kerberos.handle(challenge(.negotiate, failures: 1)) == .performDefaultHandling, "a refused ticket is not offered again")
    }

    @Test("a store answers Negotiate from its ticket-cache entry and NTLM from its password, per host")
    func storeBySource() async {
        let store = CredentialStore()
        store.setDefault(.kerberosTicketCache, forHost: "intranet.example.com", port: 443)
        store.setDefault(alice, forHost: "images.example.com", port: 443)
        let handler = CredentialChallengeHandler(store: store)
        #expect(await handler.handle(challenge(.negotiate, host: "intranet.example.com")) == .useCredential(.kerberosTicketCache))
        #expect(await handler.handle(challenge(.ntlm, host: "intranet.example.com")) == .rejectProtectionSpace)
        #expect(await handler.handle(challenge(.ntlm, host: "images.example.com")) == .useCredential(alice))
    }

    @Test("the hook is asked first; nil falls through to the rules")
    func hook() async {
        let asked = Locked(0)
        let handler = CredentialChallengeHandler(credential: alice) { challenge in
            asked.withLock { $0 += 1 }
            switch challenge.protectionSpace.host {
            case "cancel.example.com": return .cancel
            case "bearer.example.com": return .useCredential(Credential(user: "", password: "token"))
            default: return nil
            }
        }
        #expect(await handler.handle(challenge(host: "cancel.example.com")) == .cancel)
        #expect(
            await handler.handle(challenge(.other("Bearer"), host: "bearer.example.com"))
                == .useCredential(Credential(user: "", password: "token")))
        #expect(await handler.handle(challenge(host: "images.example.com")) == .useCredential(alice))
        #expect(await handler.handle(challenge(host: "images.example.com", failures: 1)) == .performDefaultHandling)
        #expect(asked.withLock { $0 } == 4)
    }

    @Test("client identities by host, without regard to case or port, else the default")
    func clientIdentities() {
        let mtls = ClientIdentity(certificateChainPEM: "cert", privateKeyPEM: "key")
        let fallback = ClientIdentity(certificateChainPEM: "default cert", privateKeyPEM: "default key", passphrase: "secret")
        let handler = CredentialChallengeHandler(clientIdentities: ["MTLS.example.com": mtls], defaultClientIdentity: fallback)
        #expect(handler.clientIdentity(forHost: "mtls.example.com", port: 443) == mtls)
        #expect(handler.clientIdentity(forHost: "mtls.EXAMPLE.com", port: 8443) == mtls)
        #expect(handler.clientIdentity(forHost: "images.example.com", port: 443) == fallback)
        #expect(
            CredentialChallengeHandler(clientIdentities: ["mtls.example.com": mtls]).clientIdentity(
                forHost: "images.example.com", port: 443) == nil)
        #expect(CredentialChallengeHandler().clientIdentity(forHost: "mtls.example.com", port: 443) == nil)
    }

    @Test("usable wherever the transport takes a challenge handler")
    func conformance() async {
        let handler: any AuthenticationChallengeHandling = CredentialChallengeHandler(credential: alice)
        #expect(await handler.handle(challenge()) == .useCredential(alice))
    }
}
