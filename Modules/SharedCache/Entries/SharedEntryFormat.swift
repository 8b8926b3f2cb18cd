import Foundation
import WebImageCore

/// How an entry is laid out in a node's value: the response's bytes and the HTTP metadata
/// the manager's caching rules read, in one value so that one `GET` answers a lookup.
///
///     body                         the response's bytes, first
///     metadata                     (below)
///     u32 metadata length
///     u64 body length
///     "WIS3"                       magic and version (3: the vector checksum)
///     u64 checksum                 EntryChecksum of everything before it
///
/// The body comes first so that a hit hands out the value's own buffer, cut short, with no
/// copy. The metadata: the response's caching header fields and the request's varying
/// ones, each as a u32 count of (u32 length, name, u32 length, value), then the request
/// and response times as the bits of two f64 (seconds since 2001). Integers are
/// little-endian. Binary rather than JSON: a hit decodes in well under a microsecond of
/// metadata work.
enum SharedEntryFormat {
    static let magic: [UInt8] = Array("WIS3".utf8)
    /// The lengths, the magic and the checksum.
    static let trailerSize = 4 + 8 + 4 + 8

    static func encode(_ data: Data, metadata: CachedResponseMetadata) -> [UInt8] {
        var header: [UInt8] = []
        appendFields(metadata.headers, to: &header)
        appendFields(metadata.varyingRequestHeaders, to: &header)
        append(metadata.requestedAt.timeIntervalSinceReferenceDate.bitPattern, to: &header)
        append(metadata.storedAt.timeIntervalSinceReferenceDate.bitPattern, to: &header)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + header.count + trailerSize)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: header)
        append(UInt32(header.count), to: &bytes)
        append(UInt64(data.count), to: &bytes)
        bytes.append(contentsOf: magic)
        let checksum = bytes.withUnsafeBytes { EntryChecksum.of($0) }
        append(checksum, to: &bytes)
        return bytes
    }

    /// The entry in `value`, or `nil` when it is not one whole, unchanged entry of this
    /// format (wrong magic, lengths that do not add up, a checksum that does not match).
    /// The entry's bytes share `value`'s buffer.
    static func decode(_ value: Data) -> CachedResponse? {
        let parsed = value.withUnsafeBytes { raw -> (bodyLength: Int, metadata: CachedResponseMetadata)? in
            let count = raw.count
            guard count >= trailerSize,
                raw[(count - 12)..<(count - 8)].elementsEqual(magic),
                EntryChecksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(count - 8)]))
                    == UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            else { return nil }
            let headerLength = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 24, as: UInt32.self)))
            guard let bodyLength = Int(exactly: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 20, as: UInt64.self))),
                bodyLength <= count - trailerSize, headerLength == count - trailerSize - bodyLength
            else { return nil }
            var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: raw[bodyLength..<(count - trailerSize)]), offset: 0)
            guard let headers = reader.fields(), let varying = reader.fields(), let requested = reader.uint64(),
                let stored = reader.uint64(), reader.remaining == 0
            else { return nil }
            var metadata = CachedResponseMetadata(
                responseHeaders: [:], requestedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: requested)),
                storedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: stored)))
            metadata.headers = headers
            metadata.varyingRequestHeaders = varying
            return (bodyLength, metadata)
        }
        guard let parsed else { return nil }
        // A prefix of a Data that starts at 0 starts at 0 too, and shares its storage.
        let body = value.startIndex == 0 ? value.prefix(parsed.bodyLength) : Data(value.prefix(parsed.bodyLength))
        return CachedResponse(data: body, metadata: parsed.metadata)
    }

    private static func appendFields(_ fields: HTTPHeaderFields, to bytes: inout [UInt8]) {
        append(UInt32(fields.count), to: &bytes)
        for (name, value) in fields {
            append(UInt32(name.utf8.count), to: &bytes)
            bytes.append(contentsOf: name.utf8)
            append(UInt32(value.utf8.count), to: &bytes)
            bytes.append(contentsOf: value.utf8)
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads the fields in order; every read checks that the bytes are there.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        var remaining: Int { bytes.count - offset }

        mutating func uint32() -> UInt32? {
            guard remaining >= 4 else { return nil }
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func uint64() -> UInt64? {
            guard remaining >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func string() -> String? {
            guard let length = uint32().map(Int.init), length <= remaining else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }

        mutating func fields() -> HTTPHeaderFields? {
            guard let count = uint32().map(Int.init), count <= remaining / 8 else { return nil }
            var fields = HTTPHeaderFields()
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                fields.add(name, value)
            }
            return fields
        }
    }
}
