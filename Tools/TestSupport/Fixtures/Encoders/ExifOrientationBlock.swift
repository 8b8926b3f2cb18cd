/// The smallest EXIF payload that says an orientation: a TIFF header and one IFD entry
/// (tag 0x0112, type SHORT, one value), as PNG's `eXIf`, WebP's `EXIF` and JPEG's APP1
/// (after its "Exif\0\0") carry it.
public enum ExifOrientationBlock {
    /// The TIFF block for orientation `value` (1 to 8), big-endian ("MM") unless
    /// `littleEndian` ("II").
    public static func bytes(_ value: UInt16, littleEndian: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        return order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) + u32(0)
    }
}
