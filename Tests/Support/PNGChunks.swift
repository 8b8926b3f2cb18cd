import Foundation

/// Builds and edits PNG chunk streams for tests that need a file the encoders do
/// not make (an eXIf chunk, a cut chunk).
public enum PNGChunks {
    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = bigEndian(UInt32(data.count))
        out += typeBytes + data
        out += bigEndian(crc32(typeBytes + data))
        return out
    }

    /// `png` with `chunk` inserted just before IEND.
    public static func inserting(_ chunk: [UInt8], beforeIENDOf png: Data) -> Data {
        var bytes = [UInt8](png)
        let iend = bytes.count - 12
        bytes.insert(contentsOf: chunk, at: iend)
        return Data(bytes)
    }

    /// A TIFF (EXIF) block holding only the orientation tag.
    public static func exifOrientation(_ value: UInt16, littleEndian: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
        let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        return order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) + u32(0)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
