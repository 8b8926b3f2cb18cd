import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageDecoding

/// The EXIF parser behind JPEG APP1 and PNG eXIf orientation, on hand-made blocks.
@Suite("EXIF orientation parsing")
struct ExifOrientationTests {
    /// A TIFF header and IFD0 with the given SHORT entries (tag, value).
    static func tiff(bigEndian: Bool, entries: [(UInt16, UInt16)], type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8) + u16(UInt16(entries.count))
        for (tag, value) in entries {
            // SHORT: the value in the field's first two bytes; LONG: all four.
            bytes += u16(tag) + u16(type) + u32(1) + (type == 4 ? u32(UInt32(value)) : u16(value) + [0, 0])
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

    @Test("a LONG-typed orientation, as some writers store it, reads too", arguments: [false, true])
    func longType(_ bigEndian: Bool) {
        #expect(Self.orientation(Self.tiff(bigEndian: bigEndian, entries: [(0x0112, 8)], type: 4)) == .left)
        #expect(
            Self.orientation(Self.tiff(bigEndian: bigEndian, entries: [(0x0112, 8)], type: 7)) == .up, "UNDEFINED is not an orientation")
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
        farOffset[4] = 0xFF
        farOffset[5] = 0xFF
        farOffset[6] = 0xFF
        farOffset[7] = 0x7F
        #expect(Self.orientation(farOffset) == .up)
        var hugeCount = Self.tiff(bigEndian: false, entries: [(0x0112, 6)])
        hugeCount[8] = 0xFF
        hugeCount[9] = 0xFF
        #expect(Self.orientation(hugeCount) == .right)
        hugeCount = Self.tiff(bigEndian: false, entries: [(0x0100, 1)])
        hugeCount[8] = 0xFF
        hugeCount[9] = 0xFF
        #expect(Self.orientation(hugeCount) == .up)
    }
}
