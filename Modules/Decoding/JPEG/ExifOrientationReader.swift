import WebImageCore

/// Reads the orientation tag (0x0112) from IFD0 of EXIF data in TIFF layout (what
/// follows "Exif\0\0" in a JPEG APP1 segment, or a PNG eXIf chunk).
///
/// Every read is bounds-checked: damaged EXIF gives ``ImageOrientation/up`` (or
/// `nil` from ``value(inTIFF:)``), never a crash.
package enum ExifOrientationReader {
    private static let orientationTag: UInt16 = 0x0112

    /// The orientation the EXIF data states; ``ImageOrientation/up`` when it states
    /// none, an invalid value, or cannot be read.
    package static func orientation(inTIFF bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        value(inTIFF: bytes).map { ImageOrientation(exifValue: $0) } ?? .up
    }

    /// The raw orientation value as stored (0 and other invalid values included), or
    /// `nil` when there is no readable orientation tag.
    package static func value(inTIFF bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true   // "MM"
        default: return nil
        }
        let reader = Reader(bytes: bytes, bigEndian: bigEndian)
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4).map(Int.init) else { return nil }
        guard let count = reader.u16(at: ifd).map(Int.init) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(at: entry) else { return nil }
            guard tag == orientationTag else { continue }
            // SHORT is what the standard says; some writers use LONG.
            switch reader.u16(at: entry + 2) {
            case 3: return reader.u16(at: entry + 8).map(Int.init)
            case 4: return reader.u32(at: entry + 8).map(Int.init)
            default: return nil
            }
        }
        return nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let bigEndian: Bool

        func u16(at offset: Int) -> UInt16? {
            guard offset >= 0, offset <= bytes.count - 2 else { return nil }
            let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func u32(at offset: Int) -> UInt32? {
            guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
            return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
        }
    }
}
