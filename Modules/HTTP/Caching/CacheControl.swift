import Foundation
import WebImageCore

/// The `Cache-Control` response directives that a cache of images acts on (RFC 9111
/// §5.2.2, and RFC 5861 for the two `stale-` extensions), read from every
/// `Cache-Control` field line of a response.
///
/// Reading rules:
/// - Directive names compare without case; values may be quoted.
/// - Of a directive given more than once, the first wins (RFC 9111 §4.2.1).
/// - A seconds value that is not a number makes the response stale at once (`max-age` and
///   `s-maxage` become 0; the `stale-` windows are ignored). One larger than 2^31 counts
///   as 2^31 (RFC 9111 §1.2.2).
/// - `no-cache` and `private` with a field list (`no-cache="Set-Cookie"`) act as the
///   plain directive: stricter than the rule, never looser.
/// - Unknown directives are ignored.
///
/// The work is linear in the fields' length, however many directives they repeat.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds.
    public var maxAge: Int?
    /// `s-maxage`, in seconds: a shared cache's `max-age`.
    public var sharedMaxAge: Int?
    /// `no-cache`: every use must be revalidated first.
    public var noCache = false
    /// `no-store`: never stored.
    public var noStore = false
    /// `must-revalidate`: once stale, never used without revalidating.
    public var mustRevalidate = false
    /// `proxy-revalidate`: `must-revalidate`, for shared caches only.
    public var proxyRevalidate = false
    /// `private`: a shared cache must not store it.
    public var isPrivate = false
    /// `public`: storable even where it would not be otherwise (a shared cache, a request
    /// with `Authorization`).
    public var isPublic = false
    /// `stale-while-revalidate`: seconds past freshness in which the stored response may
    /// be used while it is revalidated behind.
    public var staleWhileRevalidate: Int?
    /// `stale-if-error`: seconds past freshness in which the stored response may be used
    /// when revalidating fails (a 5xx, or no answer at all).
    public var staleIfError: Int?

    /// The largest delta-seconds value kept: 2^31.
    public static let maximumSeconds = 2_147_483_648

    /// No directive.
    public init() {}

    /// The directives of every `Cache-Control` field in `headers`.
    public init(_ headers: HTTPHeaderFields) {
        var seen = Set<String>()
        for line in headers.values(for: "Cache-Control") {
            for directive in Self.directives(in: line) where seen.insert(directive.name).inserted {
                apply(directive.name, directive.value)
            }
        }
    }

    private mutating func apply(_ name: String, _ value: Substring?) {
        switch name {
        case "max-age": maxAge = Self.seconds(value) ?? 0
        case "s-maxage": sharedMaxAge = Self.seconds(value) ?? 0
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(value)
        case "stale-if-error": staleIfError = Self.seconds(value)
        default: break
        }
    }

    /// Delta-seconds: digits only (RFC 9111 §1.2.2), capped at 2^31; nil when not a number.
    static func seconds(_ value: Substring?) -> Int? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        // Past ten digits the value is above 2^31 whatever it is: no need to read it all.
        guard value.utf8.count <= 10, let number = Int(value) else { return maximumSeconds }
        return min(number, maximumSeconds)
    }

    /// `name[=value]` pairs of one field line, split at commas outside quotes; names
    /// lowercased, quotes taken off values.
    static func directives(in line: String) -> [(name: String, value: Substring?)] {
        var result: [(name: String, value: Substring?)] = []
        var start = line.startIndex
        var inQuotes = false
        var index = line.startIndex
        func finish(_ end: String.Index) {
            let part = line[start..<end].trimmingHTTPWhitespace
            guard !part.isEmpty else { return }
            guard let equals = part.firstIndex(of: "=") else {
                result.append((part.lowercased(), nil))
                return
            }
            let name = part[..<equals].trimmingHTTPWhitespace.lowercased()
            var value = part[part.index(after: equals)...].trimmingHTTPWhitespace
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            result.append((name, value))
        }
        while index < line.endIndex {
            let character = line[index]
            if character == "\"" {
                inQuotes.toggle()
            } else if character == ",", !inQuotes {
                finish(index)
                start = line.index(after: index)
            }
            index = line.index(after: index)
        }
        finish(line.endIndex)
        return result
    }
}
