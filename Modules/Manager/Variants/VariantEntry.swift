import Foundation
import WebImageCore

/// A variant as the manager stores it, in the disk cache and the shared tier: the
/// encoded image and a checksum that is verified before it is decoded.
///
/// The stored value is, in order: the magic `WIMV`, the format version (1), the kind (1:
/// a still image, 2: an animation), the image's own format (the source's, which the
/// decoded image reports) as its identifier and its media type (each one length byte and
/// UTF-8), the checksum of the body (``VariantChecksum``, u64 little-endian), then the
/// body, the image as the storage's encoder wrote it. The entry's metadata is the
/// source's (its validators, its freshness). A value that is short, of another version or
/// kind, or whose body does not match its checksum is no variant: the load removes it and
/// makes the image from the source, whose store replaces it.
struct VariantEntry: Sendable, Equatable {
    enum Kind: UInt8, Sendable {
        case still = 1
        case animation = 2
    }

    let kind: Kind
    /// The format the decoded image reports: the source's.
    let format: ImageFormat
    /// The encoded image.
    let body: Data

    private static let magic = Data("WIMV".utf8)
    private static let version: UInt8 = 1

    init(kind: Kind, format: ImageFormat, body: Data) {
        self.kind = kind
        self.format = format
        self.body = body
    }

    /// The stored form.
    func encoded() -> Data {
        var value = Data(capacity: 64 + body.count)
        value.append(Self.magic)
        value.append(Self.version)
        value.append(kind.rawValue)
        for text in [format.identifier, format.mimeType] {
            let bytes = Data(text.utf8.prefix(255))
            value.append(UInt8(bytes.count))
            value.append(bytes)
        }
        withUnsafeBytes(of: VariantChecksum.of(body).littleEndian) { value.append(contentsOf: $0) }
        value.append(body)
        return value
    }

    /// The variant in `value`, or `nil` when it is not one whole, intact variant.
    init?(decoding value: Data) {
        var reader = value[...]
        guard reader.count >= Self.magic.count + 2, reader.prefix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        reader = reader.dropFirst(Self.magic.count)
        guard reader.removeFirst() == Self.version, let kind = Kind(rawValue: reader.removeFirst()) else { return nil }
        var texts: [String] = []
        for _ in 0..<2 {
            guard let length = reader.first.map(Int.init), reader.count > length else { return nil }
            texts.append(String(decoding: reader.dropFirst().prefix(length), as: UTF8.self))
            reader = reader.dropFirst(1 + length)
        }
        guard reader.count >= 8 else { return nil }
        var checksum: UInt64 = 0
        for (index, byte) in reader.prefix(8).enumerated() { checksum |= UInt64(byte) << (8 * UInt64(index)) }
        let body = reader.dropFirst(8)
        guard body.withUnsafeBytes({ VariantChecksum.of(raw: $0) }) == checksum else { return nil }
        self.init(kind: kind, format: ImageFormat(texts[0], mimeType: texts[1]), body: Data(body))
    }
}
