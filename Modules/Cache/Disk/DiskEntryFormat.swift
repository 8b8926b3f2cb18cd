import Foundation
import WebImageCore

/// The layout of one entry file:
///
/// ```
/// header (24 bytes, little-endian)   magic "WIDC", version 2, flags 0, reserved 0,
///                                    metadata length (u32), key length (u32), data length (u64)
/// data                               the bytes as stored
/// metadata                           binary CachedResponseMetadata (below)
/// key                                the key's UTF-8, to tell a hash collision or a foreign file
/// ```
///
/// The data comes right after the fixed header so that a read is one `readv` into a
/// header and one buffer whose start *is* the data: no copy, no second read. The file
/// size must equal the sum of the lengths, so a truncated or extended file is caught.
/// The body has no checksum: atomic renames mean a file is either whole or absent, and
/// hashing every read would cost more than the read.
///
/// Metadata, version 2: response time and request time (f64 seconds since 1970), then the
/// kept response header fields and the varying request header fields, each as a count
/// (u32) of name and value strings (u32 length, UTF-8). Version 1 (response time, an
/// optional max-age, then Content-Type, ETag and Last-Modified) is still read, so a cache
/// written by an older release keeps its entries.
enum DiskEntryFormat {
    static let headerSize = 24
    static let magic: (UInt8, UInt8, UInt8, UInt8) = (0x57, 0x49, 0x44, 0x43)  // "WIDC"
    static let version: UInt8 = 2
    private static let readableVersions: ClosedRange<UInt8> = 1...2
    private static let absent = UInt32.max

    struct Header {
        var version: UInt8 = DiskEntryFormat.version
        var metadataLength: Int
        var keyLength: Int
        var dataLength: Int
        var fileSize: Int { DiskEntryFormat.headerSize + dataLength + metadataLength + keyLength }
    }

    // MARK: Writing

    static func header(metadataLength: Int, keyLength: Int, dataLength: Int) -> [UInt8] {
        var bytes: [UInt8] = [magic.0, magic.1, magic.2, magic.3, version, 0, 0, 0]
        bytes.reserveCapacity(headerSize)
        append(UInt32(metadataLength), to: &bytes)
        append(UInt32(keyLength), to: &bytes)
        append(UInt64(dataLength), to: &bytes)
        return bytes
    }

    /// The metadata then the key: what follows the data.
    static func trailer(_ metadata: CachedResponseMetadata, key: CacheKey) -> (bytes: [UInt8], metadataLength: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + key.string.utf8.count)
        append(metadata.storedAt.timeIntervalSince1970.bitPattern, to: &bytes)
        append(metadata.requestedAt.timeIntervalSince1970.bitPattern, to: &bytes)
        for fields in [metadata.headers, metadata.varyingRequestHeaders] {
            append(UInt32(fields.count), to: &bytes)
            for (name, value) in fields {
                append(string: name, to: &bytes)
                append(string: value, to: &bytes)
            }
        }
        let metadataLength = bytes.count
        bytes.append(contentsOf: key.string.utf8)
        return (bytes, metadataLength)
    }

    private static func append(string: String, to bytes: inout [UInt8]) {
        append(UInt32(string.utf8.count), to: &bytes)
        bytes.append(contentsOf: string.utf8)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: Reading

    /// The header, if `raw` holds a well-formed one of this version and the lengths add
    /// up to `fileSize`; `nil` for anything else (foreign, truncated, another version).
    static func parseHeader(_ raw: UnsafeRawBufferPointer, fileSize: Int) -> Header? {
        guard raw.count >= headerSize,
            raw[0] == magic.0, raw[1] == magic.1, raw[2] == magic.2, raw[3] == magic.3,
            readableVersions.contains(raw[4])
        else { return nil }
        let metadataLength = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        let keyLength = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let dataLength64 = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
        guard dataLength64 <= UInt64(Int.max / 2) else { return nil }
        let header = Header(version: raw[4], metadataLength: metadataLength, keyLength: keyLength, dataLength: Int(dataLength64))
        guard header.fileSize == fileSize else { return nil }
        return header
    }

    /// The metadata, if `raw` (exactly the metadata bytes of a file of `version`) decodes
    /// completely.
    static func parseMetadata(_ raw: UnsafeRawBufferPointer, version: UInt8 = version) -> CachedResponseMetadata? {
        var reader = Reader(raw: raw)
        let metadata = version == 1 ? versionOne(&reader) : versionTwo(&reader)
        guard reader.offset == raw.count else { return nil }
        return metadata
    }

    private static func versionTwo(_ reader: inout Reader) -> CachedResponseMetadata? {
        guard let storedAt = reader.date(), let requestedAt = reader.date(),
            let headers = reader.fields(), let varying = reader.fields()
        else { return nil }
        var metadata = CachedResponseMetadata(
            responseHeaders: [:], varyingRequestHeaders: varying, requestedAt: requestedAt, storedAt: storedAt)
        // As stored: the fields were chosen when written.
        metadata.headers = headers
        return metadata
    }

    private static func versionOne(_ reader: inout Reader) -> CachedResponseMetadata? {
        guard let storedAt = reader.date(), let flag = reader.take(1)?.first else { return nil }
        var maxAge: Int?
        switch flag {
        case 0: maxAge = nil
        case 1:
            guard let value = reader.u64() else { return nil }
            maxAge = Int(truncatingIfNeeded: Int64(bitPattern: value))
        default: return nil
        }
        guard let contentType = reader.optionalString(), let etag = reader.optionalString(),
            let lastModified = reader.optionalString()
        else { return nil }
        return CachedResponseMetadata(
            contentType: contentType, etag: etag, lastModified: lastModified, maxAge: maxAge, storedAt: storedAt)
    }

    /// Reads the metadata's fields in order; each read is `nil` past the end.
    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, raw.count - offset >= count else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
        }
        mutating func u64() -> UInt64? { take(8).map { $0.loadUnaligned(as: UInt64.self).littleEndian } }
        mutating func u32() -> UInt32? { take(4).map { $0.loadUnaligned(as: UInt32.self).littleEndian } }

        mutating func date() -> Date? {
            guard let bits = u64() else { return nil }
            let seconds = Double(bitPattern: bits)
            return seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
        }

        mutating func string() -> String? {
            guard let length = u32(), let bytes = take(Int(length)) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Version 1's optional string: `absent` for none.
        mutating func optionalString() -> String?? {
            guard let length = u32() else { return nil }
            if length == DiskEntryFormat.absent { return .some(nil) }
            guard let bytes = take(Int(length)) else { return nil }
            return .some(String(decoding: bytes, as: UTF8.self))
        }

        /// A count, then that many name and value strings. The count is checked against
        /// the bytes left (each field needs at least 8), so a damaged count cannot make
        /// a huge allocation.
        mutating func fields() -> HTTPHeaderFields? {
            guard let count = u32(), Int(count) <= (raw.count - offset) / 8 else { return nil }
            var pairs: [(String, String)] = []
            pairs.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                pairs.append((name, value))
            }
            return HTTPHeaderFields(pairs)
        }
    }

    /// Whether the stored key bytes are exactly `key`'s UTF-8.
    static func keyMatches(_ raw: UnsafeRawBufferPointer, _ key: CacheKey) -> Bool {
        var key = key.string
        return key.withUTF8 { utf8 in
            utf8.count == raw.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, raw.baseAddress!, utf8.count) == 0)
        }
    }
}
