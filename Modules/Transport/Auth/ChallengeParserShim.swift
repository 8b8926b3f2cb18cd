import Foundation
import WebImageCore

// Replaced by Core's WWW-Authenticate parser when the Security branch lands.
enum AuthenticationChallengeParser {
    struct Challenge {
        var method: AuthenticationMethod
        var realm: String?
    }

    static func parse(_ values: [String]) -> [Challenge] {
        var found: [Challenge] = []
        for value in values {
            for scheme in ["Digest", "Basic"] where value.range(of: scheme, options: .caseInsensitive) != nil {
                var realm: String?
                if let r = value.range(of: "realm=\"") {
                    realm = String(value[r.upperBound...].prefix { $0 != "\"" })
                }
                found.append(Challenge(method: AuthenticationMethod(scheme: scheme), realm: realm))
            }
        }
        return found
    }
}
