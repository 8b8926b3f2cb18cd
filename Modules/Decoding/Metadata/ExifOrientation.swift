import WebImageCore

/// Reads the orientation tag (0x0112) from EXIF data: a TIFF header and IFD0, as in a
/// PNG eXIf chunk or after the "Exif\0\0" prefix of a JPEG APP1 segment.
///
/// Every offset is bounds-checked; anything malformed reads as ``ImageOrientation/up``.
package enum ExifOrientation {
    package static func read(tiff bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation {
        guard let reader = TIFFReader(UnsafeRawBufferPointer(bytes)), let ifd0 = reader.u32(4) else { return .up }
        // SHORT as the specification says, LONG as a few writers store it.
        return reader.integer(reader.entries(at: ifd0)[0x0112]).map(ImageOrientation.init(exifValue:)) ?? .up
    }
}
