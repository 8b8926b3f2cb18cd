import WebImageCore
@_spi(Fuzzing) import WebImageTransport

/// The `WWW-Authenticate` parser under fuzzing: a 401 from a hostile server reaches it.
enum AuthenticateChecks {
    /// Parses `values` and checks: challenges come strongest first (Negotiate, Digest,
    /// NTLM, Basic, others); `realm` mirrors the `realm` parameter; parameter names are
    /// lowercase tokens; and the challenges, written out again with quoting and escapes,
    /// parse back the same. Returns how many challenges were read.
    static func run(_ values: [String]) -> Int {
        let challenges = AuthenticationChallengeParser.parse(values)
        var lastRank = 0
        for challenge in challenges {
            let rank = rank(of: challenge.method)
            fuzzCheck(rank >= lastRank, "challenge \(challenge) comes after a weaker one")
            lastRank = rank
            fuzzCheck(challenge.realm == challenge.parameters["realm"], "realm \(String(describing: challenge.realm)) vs parameters")
            for key in challenge.parameters.keys {
                fuzzCheck(!key.isEmpty && key == key.lowercased(), "parameter name \(key.debugDescription)")
                fuzzCheck(key.utf8.allSatisfy(isToken), "parameter name \(key.debugDescription) is not a token")
            }
            fuzzCheck(!challenge.method.description.isEmpty, "a challenge without a scheme")
            fuzzCheck(challenge.method.description.utf8.allSatisfy(isToken), "scheme \(challenge.method) is not a token")
        }
        // A challenge with both a token68 and parameters has no written form of its own.
        if challenges.allSatisfy({ $0.token68 == nil || $0.parameters.isEmpty }) {
            let written = challenges.map(write).joined(separator: ", ")
            let again = AuthenticationChallengeParser.parse([written])
            fuzzCheck(again == challenges, "challenges do not parse back the same from \(written.debugDescription)")
        }
        return challenges.count
    }

    private static func rank(of method: AuthenticationMethod) -> Int {
        switch method {
        case .negotiate: 0
        case .digest: 1
        case .ntlm: 2
        case .basic: 3
        case .other: 4
        }
    }

    /// A challenge as a server would write it: quoted values with `"` and `\` escaped.
    private static func write(_ challenge: AuthenticationChallengeParser.Challenge) -> String {
        if let token68 = challenge.token68 { return "\(challenge.method) \(token68)" }
        let pairs = challenge.parameters.sorted { $0.key < $1.key }.map { key, value in
            // By scalar: a quote followed by a combining mark is one Character.
            var quoted = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
                quoted.append(scalar)
            }
            return "\(key)=\"\(String(quoted))\""
        }
        return pairs.isEmpty ? challenge.method.description : "\(challenge.method) \(pairs.joined(separator: ", "))"
    }

    /// `tchar` of RFC 9110.
    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
