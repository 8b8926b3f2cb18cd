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
        ExifOrientationBlock.bytes(value, littleEndian: littleEndian)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        CRC32.checksum(bytes)
    }
}
