import Foundation
import WebImageFixtures

/// Builds and edits PNG chunk streams for tests that need a file the encoders do
/// not make (an eXIf chunk, a cut chunk).
public enum PNGChunks {
    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        RepeatedStructures.pngChunk(type, data)
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
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        return order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) + u32(0)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        CRC32.checksum(bytes)
    }
}
