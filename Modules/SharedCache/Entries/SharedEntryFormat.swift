import Foundation
import WebImageCore

/// How an entry is laid out in a node's value: the response's bytes and the HTTP metadata
/// the manager's caching rules read, in one value so that one `GET` answers a lookup.
///
///     "WIS1"                       magic and version
///     u32 metadata length          then the metadata (below)
///     u64 body length              then the body
///     u64 checksum                 EntryChecksum of everything before it
///
/// The metadata: the response's caching header fields and the request's varying ones,
/// each as a u32 count of (u32 length, name, u32 length, value), then the request and
/// response times as the bits of two f64 (seconds since 2001). Integers are little-endian.
/// Binary rather than JSON: a hit decodes in well under a microsecond of metadata work.
enum SharedEntryFormat {
    static let magic: [UInt8] = Array("WIS1".utf8)

    static func encode(_ data: Data, metadata: CachedResponseMetadata) -> [UInt8] {
        var header: [UInt8] = []
        appendFields(metadata.headers, to: &header)
        appendFields(metadata.varyingRequestHeaders, to: &header)
        append(metadata.requestedAt.timeIntervalSinceReferenceDate.bitPattern, to: &header)
        append(metadata.storedAt.timeIntervalSinceReferenceDate.bitPattern, to: &header)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(magic.count + 4 + header.count + 8 + data.count + 8)
        bytes.append(contentsOf: magic)
        append(UInt32(header.count), to: &bytes)
        bytes.append(contentsOf: header)
        append(UInt64(data.count), to: &bytes)
        bytes.append(contentsOf: data)
        let checksum = bytes.withUnsafeBytes { EntryChecksum.of($0) }
        append(checksum, to: &bytes)
        return bytes
    }

    /// The entry in `value`, or `nil` when it is not one whole, unchanged entry of this
    /// format (wrong magic, lengths that do not add up, a checksum that does not match).
    static func decode(_ value: Data) -> CachedResponse? {
        value.withUnsafeBytes { raw -> CachedResponse? in
            guard raw.count >= magic.count + 4 + 8 + 8, raw.starts(with: magic) else { return nil }
            let checked = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])
            guard EntryChecksum.of(checked) == raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self).littleEndian
            else { return nil }
            var reader = Reader(bytes: checked, offset: magic.count)
            guard let headerLength = reader.uint32(), let headerEnd = reader.offset(after: Int(headerLength)),
                let headers = reader.fields(), let varying = reader.fields(), let requested = reader.uint64(),
                let stored = reader.uint64(), reader.offset == headerEnd,
                let bodyLength = reader.uint64(), Int(exactly: bodyLength).map({ $0 == reader.remaining }) == true
            else { return nil }
            let body = Data(UnsafeRawBufferPointer(rebasing: checked[reader.offset...]))
            var metadata = CachedResponseMetadata(
                responseHeaders: [:], requestedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: requested)),
                storedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: stored)))
            metadata.headers = headers
            metadata.varyingRequestHeaders = varying
            return CachedResponse(data: body, metadata: metadata)
        }
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

        func offset(after length: Int) -> Int? {
            length <= remaining ? offset + length : nil
        }

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
