import Foundation

/// Real files patched to claim dimensions far over any limit while staying a few
/// hundred bytes: what a decoder must refuse from its header, before allocating.
public enum DecompressionBombs {
    /// `file`, an AVIF, with every image spatial extents box (`ispe`: version and flags,
    /// then width and height, big-endian) claiming `width` x `height`; `nil` when it
    /// has no such box.
    public static func avif(_ file: Data, width: UInt32, height: UInt32) -> Data? {
        var bytes = [UInt8](file)
        let tag = Array("ispe".utf8)
        var patched = false
        for index in 0..<max(0, bytes.count - 16) where Array(bytes[index..<(index + 4)]) == tag {
            for (offset, value) in [(8, width), (12, height)] {
                for byte in 0..<4 { bytes[index + offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * (3 - byte))) }
            }
            patched = true
        }
        return patched ? Data(bytes) : nil
    }

    /// `file`, a simple lossless WebP (its chunk `VP8L`), whose header says `width` x
    /// `height` (up to WebP's 16,384): after the signature byte 0x2F at 20, a 32-bit
    /// little-endian word holds width minus one in bits 0 to 13 and height minus one in
    /// bits 14 to 27. `nil` for another kind of file.
    public static func webp(_ file: Data, width: Int, height: Int) -> Data? {
        var bytes = [UInt8](file)
        guard bytes.count > 25, Array(bytes[12..<16]) == Array("VP8L".utf8), bytes[20] == 0x2F else { return nil }
        let old = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[21 + $1]) << (8 * $1) }
        let word = (old & 0xF000_0000) | UInt32(width - 1) | UInt32(height - 1) << 14
        for byte in 0..<4 { bytes[21 + byte] = UInt8(truncatingIfNeeded: word >> (8 * byte)) }
        return Data(bytes)
    }
}
