extension ImageFormat {
    /// How many leading bytes ``sniff(_:)`` looks at; fewer may be enough.
    public static let sniffLength = 32

    /// Recognises a format from the first bytes of a file, whatever its name or
    /// Content-Type says (servers often lie).
    ///
    /// Returns `nil` when the bytes match no format in ``recognised``, including when
    /// there are too few of them to tell.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        // In place when the bytes are contiguous (Data, arrays and their slices): every
        // load sniffs once per registered decoder it tries, so no array is made here.
        if let format = bytes.withContiguousStorageIfAvailable({ sniff(head: UnsafeBufferPointer(rebasing: $0.prefix(sniffLength))) }) {
            return format
        }
        return Array(bytes.prefix(sniffLength)).withUnsafeBufferPointer { sniff(head: $0) }
    }

    private enum Signature {
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        static let gif87 = Array("GIF87a".utf8)
        static let gif89 = Array("GIF89a".utf8)
        static let riff = Array("RIFF".utf8)
        static let webp = Array("WEBP".utf8)
        static let ftyp = Array("ftyp".utf8)
        static let tiffLittle: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        static let tiffBig: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        static let bmp = Array("BM".utf8)
        static let avifBrands = ["avif", "avis"].map { Array($0.utf8) }
        static let heifBrands = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].map { Array($0.utf8) }
    }

    private static func sniff(head: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && head[offset..<(offset + signature.count)].elementsEqual(signature)
        }
        if starts(with: Signature.png) { return .png }
        if starts(with: Signature.jpeg) { return .jpeg }
        if starts(with: Signature.gif87) || starts(with: Signature.gif89) { return .gif }
        if starts(with: Signature.riff) && starts(with: Signature.webp, at: 8) { return .webp }
        if starts(with: Signature.ftyp, at: 4) { return isobmffFormat(head) }
        if starts(with: Signature.tiffLittle) || starts(with: Signature.tiffBig) { return .tiff }
        if starts(with: Signature.bmp) && head.count >= 14 { return .bmp }
        return nil
    }

    /// HEIF-family files: the major brand, then the compatible brands, decide.
    private static func isobmffFormat(_ head: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
        // Bytes 8..<12 are the major brand, 12..<16 the minor version (not a brand), then
        // the compatible brands.
        let brands = stride(from: 8, through: head.count - 4, by: 4).lazy.filter { $0 != 12 }.map { head[$0..<($0 + 4)] }
        func isAny(of names: [[UInt8]]) -> Bool { brands.contains { brand in names.contains { brand.elementsEqual($0) } } }
        if isAny(of: Signature.avifBrands) { return .avif }
        if isAny(of: Signature.heifBrands) { return .heic }
        return nil
    }
}
