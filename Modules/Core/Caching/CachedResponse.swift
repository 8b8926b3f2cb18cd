import Foundation

/// What the disk cache keeps beside the bytes of a response, so that the Manager can
/// revalidate them with a conditional request (If-None-Match, If-Modified-Since).
public struct CachedResponseMetadata: Sendable, Hashable, Codable {
    /// The Content-Type the server sent.
    public var contentType: String?
    /// The ETag validator.
    public var etag: String?
    /// The Last-Modified validator, as the server wrote it.
    public var lastModified: String?
    /// Cache-Control max-age, in seconds.
    public var maxAge: Int?
    /// When the bytes were stored.
    public var storedAt: Date

    public init(contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, maxAge: Int? = nil, storedAt: Date = Date()) {
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.storedAt = storedAt
    }

    /// Whether max-age says the bytes are still fresh at `date` (no max-age: not fresh,
    /// so the Manager revalidates when asked to refresh).
    public func isFresh(at date: Date = Date()) -> Bool {
        guard let maxAge else { return false }
        return date.timeIntervalSince(storedAt) < Double(maxAge)
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
