import Testing
import WebImageCore

@Suite("Credential: which scheme each kind answers")
struct CredentialTests {
    @Test("a password answers Basic, Digest and NTLM; never Negotiate or an unknown scheme")
    func password() {
        let password = Credential(user: #"CORP\ann"#, password: "s3cret")
        #expect(password.source == .password)
        #expect([.basic, .digest, .ntlm].allSatisfy { password.answers($0) })
        #expect(!password.answers(.negotiate))
        #expect(!password.answers(.other("Bearer")))
    }

    @Test("the Kerberos ticket cache answers Negotiate alone and holds no secret")
    func ticketCache() {
        let tickets = Credential.kerberosTicketCache
        #expect(tickets.source == .kerberosTicketCache)
        #expect(tickets.user.isEmpty && tickets.password.isEmpty)
        #expect(tickets.answers(.negotiate))
        #expect(![.basic, .digest, .ntlm, .other("Bearer")].contains { tickets.answers($0) })
        #expect(tickets != Credential(user: "", password: ""), "an empty password is not the ticket cache")
    }

    @Test("scheme names compare without case")
    func schemeNames() {
        #expect(AuthenticationMethod(scheme: "ntlm") == .ntlm)
        #expect(AuthenticationMethod(scheme: "NEGOTIATE") == .negotiate)
        #expect(AuthenticationMethod.ntlm.description == "NTLM")
        #expect(AuthenticationMethod.negotiate.description == "Negotiate")
    }
}
