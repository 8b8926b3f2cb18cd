extension ImageFormat {
    /// How many leading bytes ``sniff(_:)`` looks at; fewer may be enough.
    public static let sniffLength = 32

    /// Recognises a format from the first bytes of a file, whatever its name or
    /// Content-Type says (servers often lie).
    ///
    /// Returns `nil` when the bytes match no format in ``recognised``, including when
    /// there are too few of them to tell.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(sniffLength))
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<(offset + signature.count)]) == signature
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        if starts(with: Array("ftyp".utf8), at: 4) { return isobmffFormat(head) }
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(with: Array("BM".utf8)) && head.count >= 14 { return .bmp }
        return nil
    }

    /// HEIF-family files: the major brand, then the compatible brands, decide.
    private static func isobmffFormat(_ head: [UInt8]) -> ImageFormat? {
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= head.count {
            if offset != 12 {  // bytes 12..<16 are the minor version, not a brand
                brands.append(String(decoding: head[offset..<(offset + 4)], as: UTF8.self))
            }
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heifBrands: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if brands.contains(where: heifBrands.contains) { return .heic }
        return nil
    }
}
