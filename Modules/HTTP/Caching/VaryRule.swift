import Foundation
import WebImageCore

/// A response's `Vary` (RFC 9111 §4.1): the request fields whose values chose this
/// variant. A stored response is used only for a request whose values of those fields
/// match the ones it was stored for; `Vary: *` matches no request.
///
/// Values compare after trimming spaces, with the lines of a repeated field joined by
/// ", "; a field absent from both requests matches, absent from one does not.
struct VaryRule {
    /// The named fields, lowercased, each once.
    let names: [String]
    /// `Vary: *`.
    let matchesNothing: Bool

    init(_ responseHeaders: HTTPHeaderFields) {
        var names: [String] = []
        var seen = Set<String>()
        var star = false
        for line in responseHeaders.values(for: "Vary") {
            for part in line.split(separator: ",") {
                let name = part.trimmingHTTPWhitespace.lowercased()
                if name == "*" { star = true }
                if !name.isEmpty, name != "*", seen.insert(name).inserted { names.append(name) }
            }
        }
        self.names = names
        self.matchesNothing = star
    }

    /// The request's values of the named fields (absent ones left out).
    func selecting(from request: HTTPHeaderFields) -> HTTPHeaderFields {
        var selected = HTTPHeaderFields()
        for name in names {
            if let value = Self.value(of: name, in: request) { selected.add(name, value) }
        }
        return selected
    }

    /// Whether a request with `request` fields may use the response stored for `stored`.
    func matches(stored: HTTPHeaderFields, request: HTTPHeaderFields) -> Bool {
        guard !matchesNothing else { return false }
        return names.allSatisfy { Self.value(of: $0, in: stored) == Self.value(of: $0, in: request) }
    }

    private static func value(of name: String, in fields: HTTPHeaderFields) -> String? {
        let values = fields.values(for: name)
        guard !values.isEmpty else { return nil }
        return values.map { String($0.trimmingHTTPWhitespace) }.joined(separator: ", ")
    }
}
