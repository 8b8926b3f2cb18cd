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
        // Read as bytes, with no string made per directive: every response a load
        // stores is read here (HTTP field values are octets; the syntax is ASCII).
        var seen: UInt16 = 0
        for line in headers.values(for: "Cache-Control") {
            var line = line
            line.withUTF8 { bytes in
                Self.forEachDirective(in: bytes) { name, value in
                    guard let (directive, index) = Directive.named(name) else { return }
                    let bit: UInt16 = 1 << index
                    guard seen & bit == 0 else { return }
                    seen |= bit
                    apply(directive, value)
                }
            }
        }
    }

    /// The directives acted on, by their lowercased names.
    private enum Directive: String, CaseIterable {
        case maxAge = "max-age"
        case sharedMaxAge = "s-maxage"
        case noCache = "no-cache"
        case noStore = "no-store"
        case mustRevalidate = "must-revalidate"
        case proxyRevalidate = "proxy-revalidate"
        case isPrivate = "private"
        case isPublic = "public"
        case staleWhileRevalidate = "stale-while-revalidate"
        case staleIfError = "stale-if-error"

        /// Each one with its name as bytes, in `allCases` order: one table, made once,
        /// for the lookup that every directive of every stored response goes through.
        static let table = allCases.map { ($0, Array($0.rawValue.utf8)) }

        /// The directive named `name` (any case) and its place in `allCases`, or nil for
        /// one not acted on.
        static func named(_ name: UnsafeBufferPointer<UInt8>.SubSequence) -> (directive: Directive, index: Int)? {
            for (index, (directive, known)) in table.enumerated() where known.count == name.count {
                if zip(known, name).allSatisfy({ $0 == ($1 | (($1 >= 0x41 && $1 <= 0x5A) ? 0x20 : 0)) }) {
                    return (directive, index)
                }
            }
            return nil
        }
    }

    private mutating func apply(_ directive: Directive, _ value: UnsafeBufferPointer<UInt8>.SubSequence?) {
        switch directive {
        case .maxAge: maxAge = Self.seconds(value) ?? 0
        case .sharedMaxAge: sharedMaxAge = Self.seconds(value) ?? 0
        case .noCache: noCache = true
        case .noStore: noStore = true
        case .mustRevalidate: mustRevalidate = true
        case .proxyRevalidate: proxyRevalidate = true
        case .isPrivate: isPrivate = true
        case .isPublic: isPublic = true
        case .staleWhileRevalidate: staleWhileRevalidate = Self.seconds(value)
        case .staleIfError: staleIfError = Self.seconds(value)
        }
    }

    /// Delta-seconds: digits only (RFC 9111 §1.2.2), capped at 2^31; nil when not a number.
    static func seconds(_ value: Substring?) -> Int? {
        guard var value else { return nil }
        return value.withUTF8 { seconds($0[...]) }
    }

    private static func seconds(_ value: UnsafeBufferPointer<UInt8>.SubSequence?) -> Int? {
        guard let value, !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        // Past ten digits the value is above 2^31 whatever it is: no need to read it all.
        guard value.count <= 10 else { return maximumSeconds }
        return min(value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }, maximumSeconds)
    }

    /// Calls `body` with each `name[=value]` of one field line, split at commas outside
    /// quotes, both trimmed of whitespace, quotes taken off the value. One pass.
    private static func forEachDirective(
        in line: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>.SubSequence, _ value: UnsafeBufferPointer<UInt8>.SubSequence?) -> Void
    ) {
        func finish(_ part: UnsafeBufferPointer<UInt8>.SubSequence) {
            let part = trimmed(part)
            guard !part.isEmpty else { return }
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return body(part, nil) }
            var value = trimmed(part[(equals + 1)...])
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            body(trimmed(part[..<equals]), value)
        }
        var start = line.startIndex
        var inQuotes = false
        for index in line.indices {
            switch line[index] {
            case UInt8(ascii: "\""): inQuotes.toggle()
            case UInt8(ascii: ","):
                guard !inQuotes else { continue }
                finish(line[start..<index])
                start = index + 1
            default: continue
            }
        }
        finish(line[start...])
    }

    /// `bytes` without the spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> UnsafeBufferPointer<UInt8>.SubSequence {
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }), let last = bytes.lastIndex(where: { !isWhitespace($0) })
        else { return bytes[bytes.startIndex..<bytes.startIndex] }
        return bytes[first...last]
    }
}
