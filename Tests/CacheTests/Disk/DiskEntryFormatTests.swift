import Foundation
import Testing
import WebImageCore

@testable import WebImageCache

@Suite("Disk entry format: the metadata written and read back, this version and the one before")
struct DiskEntryFormatTests {
    @Test("version 2 keeps every caching field in order, the varying request fields and both times")
    func roundTrip() throws {
        var metadata = CachedResponseMetadata(
            responseHeaders: [
                "Cache-Control": "max-age=60", "Vary": "Accept-Language", "ETag": "\"a\"", "Set-Cookie": "not kept",
                "Date": "Sun, 06 Nov 1994 08:49:37 GMT",
            ],
            varyingRequestHeaders: ["accept-language": "fr"], requestedAt: Date(timeIntervalSince1970: 99.5),
            storedAt: Date(timeIntervalSince1970: 100.25))
        metadata.headers.add("Cache-Control", "stale-if-error=30")
        let (bytes, length) = DiskEntryFormat.trailer(metadata, key: CacheKey("k"))
        let read = bytes.withUnsafeBytes { DiskEntryFormat.parseMetadata(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
        #expect(read == metadata)
        #expect(read?.headers["Set-Cookie"] == nil, "only the caching fields are kept")
        #expect(read?.headers.values(for: "cache-control") == ["max-age=60", "stale-if-error=30"])
    }

    @Test("a version 1 entry (an older release's cache) is still read: its max-age becomes Cache-Control")
    func versionOne() throws {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(Double(1_000).bitPattern)
        bytes.append(1)
        append(UInt64(3600))
        for field in ["image/png", "\"v1\""] {
            append(UInt32(field.utf8.count))
            bytes.append(contentsOf: field.utf8)
        }
        append(UInt32.max)  // no Last-Modified
        let read = try #require(bytes.withUnsafeBytes { DiskEntryFormat.parseMetadata($0, version: 1) })
        #expect(read.contentType == "image/png" && read.etag == "\"v1\"" && read.lastModified == nil)
        #expect(read.maxAge == 3600)
        #expect(read.storedAt == Date(timeIntervalSince1970: 1_000) && read.requestedAt == read.storedAt)
    }
}
