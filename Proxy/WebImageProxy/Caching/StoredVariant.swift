import Crypto
import Foundation

/// A processed result as it is stored on disk and in the shared tier: what a request needs
/// to be answered without the source, checked whole before it is served.
///
/// The stored value is, in order: the magic `WIVR`, a format version (1), a flags byte
/// (bit 0: the format was chosen by `Accept`), the `Content-Type` and the file extension
/// (each one length byte and ASCII), the SHA-256 of the body (32 bytes), then the body,
/// the encoded image exactly as served. A value that is short, of another version, or
/// whose body does not match its hash is no result: it is removed and the request renders
/// again, whose store replaces it.
struct StoredVariant: Sendable, Equatable {
    /// The encoded image.
    let body: Data
    let contentType: String
    /// The extension of the `Content-Disposition` file name, with its dot (empty for an
    /// unknown pass-through source).
    let fileExtension: String
    /// Whether the format was chosen by the request's `Accept`.
    let variesByAccept: Bool
    /// The body's SHA-256.
    let checksum: Data

    init(body: Data, contentType: String, fileExtension: String, variesByAccept: Bool, checksum: Data? = nil) {
        self.body = body
        self.contentType = contentType
        self.fileExtension = fileExtension
        self.variesByAccept = variesByAccept
        self.checksum = checksum ?? Data(SHA256.hash(data: body))
    }

    private static let magic = Data("WIVR".utf8)
    private static let version: UInt8 = 1

    /// The stored form.
    func encoded() -> Data {
        var value = Self.magic
        value.append(Self.version)
        value.append(variesByAccept ? 1 : 0)
        for text in [contentType, fileExtension] {
            let bytes = Data(text.utf8.prefix(255))
            value.append(UInt8(bytes.count))
            value.append(bytes)
        }
        value.append(checksum)
        value.append(body)
        return value
    }

    /// The result in `value`, or `nil` when it is not one whole, intact result.
    init?(decoding value: Data) {
        var reader = value[...]
        guard reader.count >= Self.magic.count + 2, reader.prefix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        reader = reader.dropFirst(Self.magic.count)
        guard reader.removeFirst() == Self.version else { return nil }
        let flags = reader.removeFirst()
        var texts: [String] = []
        for _ in 0..<2 {
            guard let length = reader.first.map(Int.init), reader.count > length else { return nil }
            texts.append(String(decoding: reader.dropFirst().prefix(length), as: UTF8.self))
            reader = reader.dropFirst(1 + length)
        }
        guard reader.count >= 32 else { return nil }
        let checksum = Data(reader.prefix(32))
        let body = Data(reader.dropFirst(32))
        guard Data(SHA256.hash(data: body)) == checksum else { return nil }
        self.init(
            body: body, contentType: texts[0], fileExtension: texts[1], variesByAccept: flags & 1 != 0, checksum: checksum)
    }

    /// The strong ETag of this result under `key`: the first 8 bytes of the key's digest and
    /// the first 8 of the body's SHA-256, in hex, quoted. The key makes it the same in every
    /// process for the same request; the body makes it change when a render after a purge
    /// (a changed source) writes other bytes, so a client's copy is not confirmed wrongly.
    func entityTag(for key: VariantKey) -> String {
        "\"" + (key.digest.prefix(8) + checksum.prefix(8)).hexadecimal + "\""
    }
}
