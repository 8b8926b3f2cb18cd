import Foundation

/// Where a PNG's first eXIf chunk with a right CRC holds its TIFF bytes, found by a walk
/// over the chunk headers (each chunk jumped over by its length, nothing inflated), before
/// or after the image data: the chunk the decoder reads its orientation from.
enum PNGExifChunk {
    /// The chunk's data, as offsets from `data.startIndex`; `nil` without one.
    static func find(in data: Data) -> Range<Int>? {
        data.withUnsafeBytes { bytes -> Range<Int>? in
            func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
            var position = 8
            while position + 12 <= bytes.count {
                let length = u32(position)
                guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { return nil }
                let body = position + 8
                switch (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7]) {
                case (0x65, 0x58, 0x49, 0x66):  // eXIf
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(body + length)])
                    if CRC32.update(0, chunk) == UInt32(u32(body + length)) { return body..<(body + length) }
                case (0x49, 0x45, 0x4E, 0x44):  // IEND
                    return nil
                default:
                    break
                }
                position = body + length + 4
            }
            return nil
        }
    }
}
