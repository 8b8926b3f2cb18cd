import WebImageCore

/// Reads the orientation tag (0x0112) from EXIF data: a TIFF header and IFD0, as in a
/// PNG eXIf chunk or after the "Exif\0\0" prefix of a JPEG APP1 segment.
///
/// Every offset is bounds-checked; anything malformed reads as ``ImageOrientation/up``.
package enum ExifOrientation {
    package static func read(tiff bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation {
        guard bytes.count >= 8 else { return .up }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return .up
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let a = Int(bytes[offset])
            let b = Int(bytes[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset) else {
                return nil
            }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return .up }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return .up }
            if tag == 0x0112 {
                // The value sits at the start of the value field: SHORT as the
                // specification says, LONG as a few writers store it.
                switch u16(entry + 2) {
                case 3: return u16(entry + 8).map(ImageOrientation.init(exifValue:)) ?? .up
                case 4: return u32(entry + 8).map(ImageOrientation.init(exifValue:)) ?? .up
                default: return .up
                }
            }
        }
        return .up
    }
}
