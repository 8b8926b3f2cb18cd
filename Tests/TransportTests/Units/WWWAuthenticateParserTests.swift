import Testing
import WebImageCore

@_spi(Fuzzing) @testable import WebImageTransport

/// The transport reads a 401's challenges with `AuthenticationChallengeParser`.
@Suite("WWW-Authenticate: challenges from header values")
struct WWWAuthenticateParserTests {
    typealias Challenge = AuthenticationChallengeParser.Challenge

    func parse(_ values: String...) -> [Challenge] {
        AuthenticationChallengeParser.parse(values)
    }

    @Test("one Basic challenge")
    func basic() {
        let challenges = parse(#"Basic realm="photos""#)
        #expect(challenges == [Challenge(method: .basic, parameters: ["realm": "photos"])])
        #expect(challenges.first?.realm == "photos")
    }

    @Test("several challenges in one value, strongest first")
    func several() {
        let challenges = parse(#"Basic realm="b", Digest realm="a", qop="auth", nonce="x""#)
        #expect(
            challenges == [
                Challenge(method: .digest, parameters: ["realm": "a", "qop": "auth", "nonce": "x"]),
                Challenge(method: .basic, parameters: ["realm": "b"]),
            ])
        #expect(challenges.map(\.realm) == ["a", "b"])
    }

    @Test("challenges from several values; others after Basic, in the server's order")
    func severalValues() {
        let challenges = parse(#"Newauth"#, #"Bearer realm="api", Basic realm="b""#, #"Digest realm="a", nonce="n""#)
        #expect(challenges.map(\.method) == [.digest, .basic, .other("Newauth"), .other("Bearer")])
    }

    @Test("libcurl's order of preference: Negotiate, Digest, NTLM, Basic, then the rest")
    func strengthOrder() {
        let challenges = parse(#"Basic realm="b", NTLM, Bearer, Digest realm="a", nonce="n", Negotiate"#)
        #expect(challenges.map(\.method) == [.negotiate, .digest, .ntlm, .basic, .other("Bearer")])
        #expect(parse("ntlm").map(\.method.description) == ["NTLM"], "the scheme compares without case")
    }

    @Test("quoted strings keep commas, equals signs and escaped quotes and backslashes")
    func quotedStrings() {
        let challenges = parse(#"Newauth realm="apps", type=1, title="Login to \"apps\", a\\b = c", Basic realm="simple""#)
        #expect(challenges.count == 2)
        #expect(challenges[0] == Challenge(method: .basic, parameters: ["realm": "simple"]))
        #expect(challenges[1].method == .other("Newauth"))
        #expect(challenges[1].parameters == ["realm": "apps", "type": "1", "title": #"Login to "apps", a\b = c"#])
    }

    @Test("token68 values: Bearer tokens and Negotiate blobs")
    func token68() {
        #expect(parse("Bearer mF_9.B5f-4.1JqM") == [Challenge(method: .other("Bearer"), token68: "mF_9.B5f-4.1JqM")])
        #expect(
            parse("Negotiate YIIBHgYGKwYBBQUCoIIBEjCCAQ6gMDAu==, Basic realm=\"x\"") == [
                Challenge(method: .negotiate, token68: "YIIBHgYGKwYBBQUCoIIBEjCCAQ6gMDAu=="),
                Challenge(method: .basic, parameters: ["realm": "x"]),
            ])
        #expect(parse("Bearer abc=") == [Challenge(method: .other("Bearer"), token68: "abc=")])
    }

    @Test("a bare scheme, alone or between others")
    func bareSchemes() {
        #expect(parse("Negotiate") == [Challenge(method: .negotiate)])
        #expect(parse("Negotiate, NTLM, Basic realm=\"r\"").map(\.method) == [.negotiate, .ntlm, .basic])
    }

    @Test("schemes and parameter names compare without case; values keep theirs")
    func caseInsensitivity() {
        let challenges = parse(#"BASIC REALM="Photos", CharSet="UTF-8""#)
        #expect(challenges == [Challenge(method: .basic, parameters: ["realm": "Photos", "charset": "UTF-8"])])
        #expect(parse("digest Realm=r").first?.method == .digest)
    }

    @Test("spaces around equals signs, tabs, unquoted values and empty list elements")
    func whitespace() {
        let challenges = parse(" ,  Digest   realm = \"a\" ,\tqop=auth-int ,, nonce=abc==, algorithm = MD5 ,")
        #expect(
            challenges == [Challenge(method: .digest, parameters: ["realm": "a", "qop": "auth-int", "nonce": "abc==", "algorithm": "MD5"])])
    }

    @Test("UTF-8 in quoted realms")
    func utf8() {
        #expect(parse(#"Basic realm="Fotos für Zoë""#).first?.realm == "Fotos für Zoë")
    }

    @Test("malformed input never fails: junk is skipped up to the next comma")
    func malformed() {
        #expect(parse("") == [])
        #expect(parse("   ") == [])
        #expect(parse(",,,") == [])
        #expect(parse(#"realm="orphan", Basic realm="b""#) == [Challenge(method: .basic, parameters: ["realm": "b"])])
        #expect(
            parse(#"Basic realm="unterminated, qop=auth"#) == [Challenge(method: .basic, parameters: ["realm": "unterminated, qop=auth"])])
        #expect(
            parse(#"Basic realm="a" junk here, charset="UTF-8""#) == [
                Challenge(method: .basic, parameters: ["realm": "a", "charset": "UTF-8"])
            ])
        #expect(parse(#"Basic realm="first", realm="second""#).first?.realm == "first")
        #expect(parse("\"quoted\", (comment), Basic realm=x") == [Challenge(method: .basic, parameters: ["realm": "x"])])
        #expect(parse(#"Basic realm="a\"#).first?.realm == #"a\"#)
    }

    @Test("a challenge reads back as a header value")
    func description() {
        #expect(Challenge(method: .digest, parameters: ["realm": "a", "nonce": "x"]).description == #"Digest nonce="x", realm="a""#)
        #expect(Challenge(method: .other("Bearer"), token68: "abc").description == "Bearer abc")
    }
}
