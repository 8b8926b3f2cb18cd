import Foundation
import WebImageCore
import WebImageSecurity
@_spi(Fuzzing) import WebImageTransport

/// Fuzz target `headers`: everything a server (or a page) says in text — the response
/// head, `Location`, `WWW-Authenticate`, `data:` URLs, and public-key pin lists.
public enum HeadersHarness {
    /// Runs `data` through each text parser with the checks of ``ResponseHeadChecks``,
    /// ``RedirectChecks``, ``AuthenticateChecks`` and ``DataURLChecks``; a pin list that
    /// parses must give 32-byte digests whose written form parses back the same.
    public static func run(_ data: Data) -> FuzzOutcome {
        let text = String(decoding: data, as: UTF8.self)
        var found: [String] = []

        let head = ResponseHeadChecks.run(data)
        if let head {
            found.append("head \(head.statusCode) with \(head.headers.count) field(s)")
            RedirectChecks.run(status: head.statusCode, location: head.headers["Location"])
        }
        RedirectChecks.run(status: 302, location: text)

        // The whole input as one header value too, so that seeds need no head around it.
        let values = (head?.headers.values(for: "WWW-Authenticate") ?? []) + [text]
        let challenges = AuthenticateChecks.run(values)
        if challenges > 0 { found.append("\(challenges) challenge(s)") }

        if DataURLChecks.run(text) { found.append("data URL") }

        if let pins = try? PublicKeyPin.list(text) {
            for pin in pins {
                guard let digest = pin.sha256 else { continue }
                fuzzCheck(digest.count == 32, "a pin of \(digest.count) bytes from \(text.debugDescription)")
                fuzzCheck((try? PublicKeyPin(pin.description)) == pin, "pin \(pin) does not read back the same")
            }
            found.append("\(pins.count) pin(s)")
        }
        return found.isEmpty ? .rejected("nothing parsed") : .accepted(found.joined(separator: ", "))
    }
}
