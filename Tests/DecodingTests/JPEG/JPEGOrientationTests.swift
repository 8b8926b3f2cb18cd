import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// EXIF orientation is read from APP1, exposed, and applied only when asked.
@Suite("JPEG EXIF orientation", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGOrientationTests {
    let decoder = JPEGDecoder()

    static let oriented = JPEGTestData.entries.filter { $0.exifOrientation != nil && $0.expected == .valid }

    @Test("the orientation matches the manifest's EXIF value; pixels stay as stored", arguments: oriented)
    func exposed(_ entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        let image = try decoder.decode(data)
        let expected = ImageOrientation(exifValue: try #require(entry.exifOrientation))
        #expect(image.orientation == expected)
        #expect(image.width == entry.width && image.height == entry.height)

        let incremental = decoder.makeIncrementalDecoder(options: .default)
        try incremental.append(data)
        #expect(incremental.info?.orientation == expected)
    }

    @Test("appliesOrientation turns the pixels upright and swaps the size for 5 to 8", arguments: oriented)
    func applied(_ entry: CorpusEntry) throws {
        let image = try decoder.decode(try Corpus.data(entry.file), options: DecodeOptions(appliesOrientation: true))
        let orientation = ImageOrientation(exifValue: try #require(entry.exifOrientation))
        #expect(image.orientation == .up)
        let (w, h) = (try #require(entry.width), try #require(entry.height))
        let expected = orientation.swapsWidthAndHeight ? PixelSize(width: h, height: w) : PixelSize(width: w, height: h)
        #expect(image.size == expected)
        #expect(image.sourceSize == PixelSize(width: w, height: h))
    }

    @Test("every Landscape_N and Portrait_N, turned upright, shows the same picture as _1",
          arguments: ["Landscape", "Portrait"])
    func uprightImagesAgree(_ set: String) throws {
        let options = DecodeOptions(maxPixelSize: 240, appliesOrientation: true)
        let reference = try decoder.decode(try Corpus.data("jpeg/exif-orientation/\(set)_1.jpg"), options: options)
        for n in 2...8 {
            let image = try decoder.decode(try Corpus.data("jpeg/exif-orientation/\(set)_\(n).jpg"), options: options)
            #expect(image.size == reference.size, "\(set)_\(n)")
            guard image.size == reference.size else { continue }
            let difference = meanAbsoluteDifference(image.bitmap, reference.bitmap)
            #expect(difference < 2, "\(set)_\(n) differs by \(difference)")
        }
    }
}

/// The EXIF parser the JPEG decoder uses (``ExifOrientation``), on hand-made blocks.
@Suite("EXIF orientation parsing for JPEG APP1")
struct JPEGExifParsingTests {
    /// A TIFF header and IFD0 with the given SHORT entries (tag, value).
    static func tiff(bigEndian: Bool, entries: [(UInt16, UInt16)]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8) + u16(UInt16(entries.count))
        for (tag, value) in entries {
            bytes += u16(tag) + u16(3) + u32(1) + u16(value) + [0, 0]
        }
        return bytes + u32(0)
    }

    static func orientation(_ bytes: [UInt8]) -> ImageOrientation {
        bytes.withUnsafeBufferPointer { ExifOrientation.read(tiff: $0) }
    }

    @Test("reads the orientation in both byte orders; values outside 1...8 are .up", arguments: [false, true])
    func byteOrders(_ bigEndian: Bool) {
        for v in UInt16(0)...9 {
            let expected = ImageOrientation(exifValue: Int(v))
            #expect(Self.orientation(Self.tiff(bigEndian: bigEndian, entries: [(0x010F, 0), (0x0112, v)])) == expected)
        }
    }

    @Test("no tag, a bad header or any truncation reads as .up, never a crash")
    func damaged() {
        let good = Self.tiff(bigEndian: false, entries: [(0x0100, 10), (0x0112, 6)])
        #expect(Self.orientation(good) == .right)
        #expect(Self.orientation(Self.tiff(bigEndian: true, entries: [(0x0100, 10)])) == .up)
        #expect(Self.orientation([0x49, 0x49, 43, 0] + good.dropFirst(4)) == .up)
        #expect(Self.orientation([0x41, 0x42] + good.dropFirst(2)) == .up)
        for length in 0..<(good.count - 6) {
            #expect(Self.orientation(Array(good.prefix(length))) == .up, "prefix \(length)")
        }
        // IFD offset far past the end, and an entry count larger than the data.
        var farOffset = good
        farOffset[4] = 0xFF; farOffset[5] = 0xFF; farOffset[6] = 0xFF; farOffset[7] = 0x7F
        #expect(Self.orientation(farOffset) == .up)
        var hugeCount = Self.tiff(bigEndian: false, entries: [(0x0112, 6)])
        hugeCount[8] = 0xFF; hugeCount[9] = 0xFF
        #expect(Self.orientation(hugeCount) == .right)
        hugeCount = Self.tiff(bigEndian: false, entries: [(0x0100, 1)])
        hugeCount[8] = 0xFF; hugeCount[9] = 0xFF
        #expect(Self.orientation(hugeCount) == .up)
    }
}
