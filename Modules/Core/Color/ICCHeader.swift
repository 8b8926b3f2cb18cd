import Foundation

/// The parts of an ICC profile read without a colour engine: the header fields and the
/// tag table, checked for the sizes and offsets a hostile file could lie about.
struct ICCHeader {
    /// The profile's declared size, at most the bytes given.
    let size: Int
    let colorSpace: ColorProfile.ColorSpace
    /// The profile connection space signature (`XYZ ` or `Lab `).
    let connectionSpace: UInt32
    /// Tag signature to the byte range of its data, for the tags that lie inside.
    let tags: [UInt32: Range<Int>]
    /// The profile's bytes, for reading tag data.
    let bytes: Data

    init(_ data: Data) throws(ColorProfileError) {
        guard data.count <= ColorProfile.maximumByteCount else {
            throw ColorProfileError(.tooLarge, "\(data.count) bytes; the limit is \(ColorProfile.maximumByteCount)")
        }
        guard data.count >= 132 else { throw ColorProfileError(.truncated, "\(data.count) bytes, shorter than an ICC header") }
        let bytes = Data(data)  // indices from 0
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        guard u32(36) == 0x6163_7370 else { throw ColorProfileError(.malformed, "no 'acsp' signature") }
        let declared = Int(u32(0))
        guard declared >= 132 else { throw ColorProfileError(.malformed, "declared size \(declared) is shorter than a header") }
        guard declared <= ColorProfile.maximumByteCount else {
            throw ColorProfileError(.tooLarge, "declared size \(declared); the limit is \(ColorProfile.maximumByteCount)")
        }
        guard declared <= bytes.count else {
            throw ColorProfileError(.truncated, "declares \(declared) bytes but has \(bytes.count)")
        }
        let count = Int(u32(128))
        guard count <= (declared - 132) / 12 else {
            throw ColorProfileError(.malformed, "\(count) tags do not fit in \(declared) bytes")
        }
        var tags: [UInt32: Range<Int>] = [:]
        for index in 0..<count {
            let entry = 132 + index * 12
            let offset = Int(u32(entry + 4))
            let length = Int(u32(entry + 8))
            guard offset <= declared, length <= declared - offset else {
                throw ColorProfileError(.malformed, "tag '\(Self.text(u32(entry)))' lies outside the profile")
            }
            tags[u32(entry)] = offset..<(offset + length)
        }
        self.size = declared
        self.colorSpace = ColorProfile.ColorSpace(signature: u32(16))
        self.connectionSpace = u32(20)
        self.tags = tags
        self.bytes = bytes
    }

    /// The data of the tag `signature`, or `nil` when the profile has none.
    func tag(_ signature: String) -> Data? {
        guard let range = tags[Self.signature(signature)] else { return nil }
        return bytes[range]
    }

    static func signature(_ text: String) -> UInt32 {
        text.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func text(_ signature: UInt32) -> String {
        let scalars = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signature >> UInt32($0)) }
        return String(decoding: scalars.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}
