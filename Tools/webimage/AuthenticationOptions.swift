import ArgumentParser
import Foundation
import WebImage

/// The authentication flags of `webimage fetch`: what answers a server's 401.
///
/// Like curl's `-u` and `--negotiate`, they answer only the hosts of the URLs given (a
/// redirect to another host gets no credential): `--user` answers Basic, Digest and NTLM
/// with a password, `--negotiate` answers Negotiate (SPNEGO) with the Kerberos tickets of
/// the default credential cache (`KRB5CCNAME`, filled by `kinit`).
struct AuthenticationOptions: ParsableArguments {
    @Option(
        name: .customLong("user"),
        help: ArgumentHelp(
            "Answer Basic, Digest and NTLM challenges of the URLs' hosts with this user and password (DOMAIN\\user for an NTLM domain).",
            valueName: "user:password"))
    var user: String?

    @Flag(
        name: .customLong("negotiate"),
        help: "Answer Negotiate challenges of the URLs' hosts with the Kerberos tickets of the default credential cache (kinit first).")
    var negotiate = false

    func validate() throws {
        if let user, !user.contains(":") { throw ValidationError("--user must be user:password") }
    }

    /// The handler for the transport, or nil when no flag was given (a 401 then fails the load).
    func challengeHandler(for urls: [URL]) -> (any AuthenticationChallengeHandling)? {
        guard user != nil || negotiate else { return nil }
        let origins = Set(urls.compactMap(Self.origin))
        let store = CredentialStore()
        if let user, let colon = user.firstIndex(of: ":") {
            let credential = Credential(user: String(user[..<colon]), password: String(user[user.index(after: colon)...]))
            for origin in origins { store.setDefault(credential, forHost: origin.host, port: origin.port) }
        }
        let negotiate = negotiate
        return CredentialChallengeHandler(store: store) { challenge in
            let space = challenge.protectionSpace
            guard origins.contains(Origin(host: space.host, port: space.port)) else { return .performDefaultHandling }
            guard negotiate, space.method == .negotiate else { return nil }
            // Tickets the server refused (or none in the cache) are not offered again.
            return challenge.previousFailureCount == 0 ? .useCredential(.kerberosTicketCache) : .performDefaultHandling
        }
    }

    private struct Origin: Hashable {
        var host: String
        var port: Int
    }

    private static func origin(_ url: URL) -> Origin? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host else { return nil }
        return Origin(host: host.lowercased(), port: url.port ?? (scheme == "https" ? 443 : 80))
    }
}
