import WebImageCore

/// A JPEG's frame header, read by walking its segments without libjpeg: what the memory
/// estimate needs (size, components, whether libjpeg will hold every DCT coefficient),
/// for a fraction of the cost of creating a decompressor and parsing its tables, which
/// was 6% of a cold load of 256x256 photos.
///
/// The walk follows libjpeg's reading up to the first scan: `SOI`, then segments (each
/// marker after any `0xFF` fill bytes, with a two-byte length unless it is `TEM` or
/// `RSTn`), the first `SOFn` giving the frame and the first `SOS` ending the walk. It
/// jumps from length to length, so it is linear in the number of segments however many
/// there are. Anything libjpeg would not get past (a second frame header, a scan before
/// the frame, a segment running off the end) gives `nil`, and the caller asks libjpeg.
struct JPEGHeaderScan: Equatable {
    var size: PixelSize
    var components: Int
    var isProgressive: Bool
    /// libjpeg's `jpeg_has_multiple_scans`: progressive, or a first scan that does not
    /// hold every component.
    var hasMultipleScans: Bool

    /// The colour model as far as the estimate cares: four components are CMYK (or
    /// YCCK), which libjpeg cannot turn into gray.
    var colorModel: JPEGHeader.ColorModel {
        switch components {
        case 1: .gray
        case 3: .yCbCr
        case 4: .cmyk
        default: .other
        }
    }

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        var frame: (size: PixelSize, components: Int, progressive: Bool)?
        while index < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            while index < bytes.count, bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { return nil }
            let marker = bytes[index]
            index += 1
            switch marker {
            case 0x01, 0xD0...0xD7: continue  // TEM and RSTn carry no length
            case 0x00, 0xD8, 0xD9: return nil  // a stuffed zero, a second SOI, or the end before any scan
            default: break
            }
            guard index + 2 <= bytes.count else { return nil }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard length >= 2, index + length <= bytes.count else { return nil }
            let body = index + 2
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn: precision, height, width, component count.
                guard frame == nil, length >= 8 else { return nil }
                let height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                let width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                let components = Int(bytes[body + 5])
                guard width > 0, height > 0, components > 0 else { return nil }
                let progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
                frame = (PixelSize(width: width, height: height), components, progressive)
            case 0xDA:
                // SOS: its component count decides an interleaved baseline scan.
                guard let frame, length >= 3 else { return nil }
                size = frame.size
                components = frame.components
                isProgressive = frame.progressive
                hasMultipleScans = frame.progressive || Int(bytes[body]) < frame.components
                return
            default:
                break
            }
            index += length
        }
        return nil
    }
}
