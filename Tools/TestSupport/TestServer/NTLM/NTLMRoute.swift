import Foundation
import NIOHTTP1

/// /ntlm-auth/<user>/<password>: the real three-message NTLM handshake, on one
/// connection. The user may name a domain, `DOMAIN\user` (`%5C`).
///
/// No `Authorization: NTLM` → 401 `WWW-Authenticate: NTLM`. A NEGOTIATE → 401 with a
/// CHALLENGE: a random 8-byte server challenge, remembered by this connection alone,
/// extended session security and target info, which make libcurl answer NTLMv2. An
/// AUTHENTICATE on that connection → its NTLMv2 response checked against the password
/// (and the user and domain named): 200 with `authenticated <user>`, or the file
/// `?file=<path>` of the document root; else (a wrong password, no challenge on this
/// connection, an NTLMv1 or malformed message) 401 `WWW-Authenticate: NTLM` again.
/// Later requests on that connection without `Authorization` are the user's (as IIS
/// has it): the connection is what NTLM authenticated. Over HTTP/2 an NTLM message gets
/// 400: NTLM authenticates a connection, which HTTP/2 shares between requests.
enum NTLMRoute {
    static let serverName = "WISERVER"

    static func plan(_ rest: Substring, query: Query, head: HTTPRequestHead, core: ServerCore, connection: ConnectionInfo, isHTTP2: Bool)
        -> ResponsePlan
    {
        guard let (named, password) = Auth.credentials(rest) else { return Routes.notFound() }
        let (domain, user) = split(named)
        // As IIS does: after a handshake, the connection is the user's.
        if head.headers.first(name: "authorization") == nil, !isHTTP2, connection.ntlmUser == named {
            return success(user, query: query, head: head, core: core)
        }
        guard let authorization = head.headers.first(name: "authorization"),
            authorization.count > 5, authorization.prefix(5).lowercased() == "ntlm ",
            let decoded = Data(base64Encoded: authorization.dropFirst(5).trimmingCharacters(in: .whitespaces))
        else {
            return unauthorized(nil)
        }
        if isHTTP2 { return .text(.badRequest, "NTLM needs HTTP/1.1") }
        let message = [UInt8](decoded)
        switch NTLMMessages.type(of: message) {
        case 1:
            let serverChallenge = (0..<8).map { _ in UInt8.random(in: 0...255) }
            connection.ntlmChallenge = serverChallenge
            connection.ntlmUser = nil
            let challenge = NTLMMessages.challenge(
                serverChallenge: serverChallenge, domain: domain.isEmpty ? "WIDOMAIN" : domain, server: serverName)
            return unauthorized(Data(challenge).base64EncodedString())
        case 3:
            // The challenge is used once, and only by the connection it was given on.
            guard let serverChallenge = connection.ntlmChallenge else { return unauthorized(nil) }
            connection.ntlmChallenge = nil
            guard let answer = NTLMMessages.authenticate(message),
                answer.user.lowercased() == user.lowercased(), answer.domain.lowercased() == domain.lowercased(),
                NTLMv2Verifier.verify(
                    ntResponse: answer.ntResponse, serverChallenge: serverChallenge, user: answer.user, domain: answer.domain,
                    password: password)
            else { return unauthorized(nil) }
            connection.ntlmUser = named
            return success(user, query: query, head: head, core: core)
        default:
            return unauthorized(nil)
        }
    }

    private static func success(_ user: String, query: Query, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        if let file = query["file"] {
            return Files.plan(relativePath: file[...], query: query, head: head, documentRoot: core.documentRoot)
        }
        return .text(.ok, "authenticated \(user)")
    }

    /// `DOMAIN\user` → ("DOMAIN", "user"); a plain user has the empty domain.
    private static func split(_ named: String) -> (domain: String, user: String) {
        guard let slash = named.firstIndex(of: "\\") else { return ("", named) }
        return (String(named[..<slash]), String(named[named.index(after: slash)...]))
    }

    private static func unauthorized(_ token: String?) -> ResponsePlan {
        var headers = HTTPHeaders()
        headers.add(name: "www-authenticate", value: token.map { "NTLM " + $0 } ?? "NTLM")
        return .text(.unauthorized, "unauthorized", headers: headers)
    }
}
