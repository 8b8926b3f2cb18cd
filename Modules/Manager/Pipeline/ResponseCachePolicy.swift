import Foundation
import WebImageCore

/// What the disk cache keeps of a response, and whether it may keep it at all.
enum ResponseCachePolicy {
    /// `Cache-Control: no-store` forbids writing the bytes to disk; the decoded image
    /// still goes to memory (it lives only as long as the process).
    static func mayStore(_ response: TransportResponse) -> Bool {
        !directives(response).contains { $0 == "no-store" }
    }

    /// The validators and freshness to store beside the bytes.
    static func metadata(for response: TransportResponse, now: Date = Date()) -> CachedResponseMetadata {
        let maxAge = directives(response).lazy.compactMap { directive -> Int? in
            guard directive.hasPrefix("max-age=") else { return nil }
            return Int(directive.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }.first
        return CachedResponseMetadata(
            contentType: response.headers["Content-Type"], etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"], maxAge: maxAge, storedAt: now)
    }

    /// The stored metadata refreshed by a 304: its new validators and max-age win.
    static func refreshed(_ stored: CachedResponseMetadata, by response: TransportResponse, now: Date = Date()) -> CachedResponseMetadata {
        let fresh = metadata(for: response, now: now)
        return CachedResponseMetadata(
            contentType: stored.contentType, etag: fresh.etag ?? stored.etag,
            lastModified: fresh.lastModified ?? stored.lastModified, maxAge: fresh.maxAge ?? stored.maxAge, storedAt: now)
    }

    private static func directives(_ response: TransportResponse) -> [String] {
        response.headers.values(for: "Cache-Control").flatMap { value in
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
    }
}
