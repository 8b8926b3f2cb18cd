import WebImageCore

/// The strong validator that lets a download resume: sent as `If-Range`, it makes the
/// server answer a `Range` request with the missing bytes only while the representation
/// is still the one the kept bytes came from (else with the whole of the new one).
///
/// Two kinds qualify (RFC 9110 §13.1.5 allows no other in `If-Range`):
/// - a strong entity tag (`ETag: "v1"`); a weak one (`W/"v1"`) never does;
/// - a `Last-Modified` date, but only when there is no entity tag at all and the
///   response's own `Date` is at least 60 seconds later. RFC 9110 §8.8.2.2 lets a client
///   take a modification date as strong when its `Date` is at least one second later
///   and clock skew is unlikely; 60 seconds is the margin the same section gives caches,
///   so a file rewritten within the second it was served can never pass for unchanged.
///
/// ```swift
/// if let validator = ResumeValidator(responseHeaders: response.headers) {
///     request.headers.set("If-Range", validator.ifRangeValue)
/// }
/// ```
public struct ResumeValidator: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case entityTag(EntityTag)
        case lastModified(String, seconds: Int, date: String)
    }

    private let kind: Kind

    /// The validator of a response with these headers, or `nil` when it has none strong
    /// enough: a single strong `ETag`, else (no `ETag` field at all) a `Last-Modified`
    /// that passes the rule above. Several `ETag` fields, or one that does not parse,
    /// give `nil`: nothing says which tag the bytes belong to.
    public init?(responseHeaders headers: HTTPHeaderFields) {
        let tags = headers.values(for: "ETag")
        if !tags.isEmpty {
            guard tags.count == 1, let tag = EntityTag(parsing: tags[0]) else { return nil }
            self.init(entityTag: tag)
            return
        }
        guard let modified = headers["Last-Modified"], let date = headers["Date"] else { return nil }
        self.init(lastModified: modified, date: date)
    }

    /// `tag` as a validator; `nil` when it is weak.
    public init?(entityTag tag: EntityTag) {
        guard !tag.isWeak else { return nil }
        kind = .entityTag(tag)
    }

    /// A `Last-Modified` value as a validator, given the `Date` of the same response;
    /// `nil` unless both are HTTP dates and `date` is at least 60 seconds later.
    public init?(lastModified: String, date: String) {
        guard let modified = HTTPDate.parse(lastModified), let served = HTTPDate.parse(date), served - modified >= 60 else {
            return nil
        }
        kind = .lastModified(lastModified, seconds: modified, date: date)
    }

    /// The strong entity tag, for a validator that is one.
    public var entityTag: EntityTag? {
        if case .entityTag(let tag) = kind { tag } else { nil }
    }

    /// The `Last-Modified` and `Date` values, for a validator that is a date.
    public var lastModified: (value: String, date: String)? {
        if case .lastModified(let value, _, let date) = kind { (value, date) } else { nil }
    }

    /// The `If-Range` field value: the entity tag, or the `Last-Modified` date verbatim.
    public var ifRangeValue: String {
        switch kind {
        case .entityTag(let tag): tag.description
        case .lastModified(let value, _, _): value
        }
    }

    /// Whether a response's own validator, when it carries one, is this one: a strong
    /// `ETag` equal to this tag, or a `Last-Modified` at the same instant. A response
    /// that carries none says nothing against it.
    public func isConsistent(with headers: HTTPHeaderFields) -> Bool {
        switch kind {
        case .entityTag(let tag):
            let tags = headers.values(for: "ETag")
            if tags.isEmpty { return true }
            guard tags.count == 1, let other = EntityTag(parsing: tags[0]) else { return false }
            return tag.matchesStrongly(other)
        case .lastModified(_, let seconds, _):
            // A weak ETag may come with it (that is why the date is used): only the date counts.
            let dates = headers.values(for: "Last-Modified")
            if dates.isEmpty { return true }
            return dates.count == 1 && HTTPDate.parse(dates[0]) == seconds
        }
    }

    public var description: String {
        switch kind {
        case .entityTag(let tag): "ETag \(tag)"
        case .lastModified(let value, _, _): "Last-Modified \(value)"
        }
    }
}
