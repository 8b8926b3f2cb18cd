import Foundation

/// What the disk cache keeps beside the bytes of a response: the response's header fields
/// that HTTP caching reads (RFC 9111), when it was asked for and received, and the
/// request's values of the fields its `Vary` names. From these the manager decides
/// whether the bytes are fresh, must be revalidated (with `If-None-Match` /
/// `If-Modified-Since`), or belong to another variant.
public struct CachedResponseMetadata: Sendable, Hashable, Codable {
    /// The response's header fields that caching reads (see ``cachingFieldNames``), as
    /// received or as refreshed by a later 304.
    public var headers: HTTPHeaderFields
    /// The request's values of the fields the response's `Vary` names (a field the request
    /// did not send is absent).
    public var varyingRequestHeaders: HTTPHeaderFields
    /// When the request was sent: RFC 9111's `request_time`, for the response delay.
    public var requestedAt: Date
    /// When the response arrived and was stored: RFC 9111's `response_time`.
    public var storedAt: Date

    /// The response fields kept: freshness (`Cache-Control`, `Expires`, `Date`, `Age`),
    /// validators (`ETag`, `Last-Modified`), variants (`Vary`) and `Content-Type`.
    public static let cachingFieldNames = [
        "Cache-Control", "Expires", "Date", "Age", "ETag", "Last-Modified", "Vary", "Content-Type",
    ]

    /// Metadata from a response's fields (only the ``cachingFieldNames`` are kept).
    public init(
        responseHeaders: HTTPHeaderFields, varyingRequestHeaders: HTTPHeaderFields = [:], requestedAt: Date? = nil,
        storedAt: Date = Date()
    ) {
        var kept = HTTPHeaderFields()
        for (name, value) in responseHeaders where Self.cachingFieldNames.contains(where: { $0.caseInsensitiveEquals(name) }) {
            kept.add(name, value)
        }
        self.headers = kept
        self.varyingRequestHeaders = varyingRequestHeaders
        self.requestedAt = requestedAt ?? storedAt
        self.storedAt = storedAt
    }

    /// Metadata from the usual fields one by one: `maxAge` becomes
    /// `Cache-Control: max-age=N`.
    public init(contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, maxAge: Int? = nil, storedAt: Date = Date()) {
        var fields = HTTPHeaderFields()
        if let contentType { fields.add("Content-Type", contentType) }
        if let etag { fields.add("ETag", etag) }
        if let lastModified { fields.add("Last-Modified", lastModified) }
        if let maxAge { fields.add("Cache-Control", "max-age=\(maxAge)") }
        self.init(responseHeaders: fields, storedAt: storedAt)
    }

    /// The Content-Type the server sent.
    public var contentType: String? { headers["Content-Type"] }
    /// The ETag validator, as the server wrote it (`W/` included for a weak one).
    public var etag: String? { headers["ETag"] }
    /// The Last-Modified validator, as the server wrote it.
    public var lastModified: String? { headers["Last-Modified"] }
    /// The first `max-age` of `Cache-Control`, in seconds (for display; freshness follows
    /// all of RFC 9111's rules, in WebImageHTTP).
    public var maxAge: Int? {
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let trimmed = directive.trimmingCharacters(in: .whitespaces)
                guard trimmed.lowercased().hasPrefix("max-age=") else { continue }
                return Int(trimmed.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            }
        }
        return nil
    }

    // MARK: Codable: the header fields as [name, value] pairs, in order.

    private enum CodingKeys: String, CodingKey {
        case headers, varyingRequestHeaders, requestedAt, storedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func fields(_ key: CodingKeys) throws -> HTTPHeaderFields {
            let pairs = try container.decode([[String]].self, forKey: key)
            return HTTPHeaderFields(pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        }
        headers = try fields(.headers)
        varyingRequestHeaders = try fields(.varyingRequestHeaders)
        requestedAt = try container.decode(Date.self, forKey: .requestedAt)
        storedAt = try container.decode(Date.self, forKey: .storedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(headers.map { [$0.name, $0.value] }, forKey: .headers)
        try container.encode(varyingRequestHeaders.map { [$0.name, $0.value] }, forKey: .varyingRequestHeaders)
        try container.encode(requestedAt, forKey: .requestedAt)
        try container.encode(storedAt, forKey: .storedAt)
    }
}

/// Bytes read back from the disk cache, with their metadata.
public struct CachedResponse: Sendable {
    public var data: Data
    public var metadata: CachedResponseMetadata

    public init(data: Data, metadata: CachedResponseMetadata) {
        self.data = data
        self.metadata = metadata
    }
}
