import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageDecoding

/// The camera fields of an EXIF block, on blocks made here, and the blocks the headers of
/// JPEG and PNG files carry.
@Suite("EXIF camera fields")
struct ExifFieldsTests {
    /// A TIFF block: IFD0's entries, then an Exif IFD's (pointed to from IFD0), then the
    /// values that do not fit in four bytes.
    struct TIFFBlock {
        enum Value {
            case text(String)
            case short(UInt16)
            case rational(UInt32, UInt32)
        }

        var bigEndian = true
        var main: [(UInt16, Value)] = []
        var exif: [(UInt16, Value)] = []

        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }

        var bytes: [UInt8] {
            let mainEntries = main.count + (exif.isEmpty ? 0 : 1)
            let mainSize = 2 + 12 * mainEntries + 4
            let exifOffset = 8 + mainSize
            let exifSize = exif.isEmpty ? 0 : 2 + 12 * exif.count + 4
            var dataOffset = exifOffset + exifSize
            var data: [UInt8] = []
            func entry(_ tag: UInt16, _ value: Value) -> [UInt8] {
                let (type, count, payload): (UInt16, Int, [UInt8]) =
                    switch value {
                    case .text(let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
                    case .short(let number): (3, 1, u16(number) + [0, 0])
                    case .rational(let numerator, let denominator): (5, 1, u32(numerator) + u32(denominator))
                    }
                guard payload.count > 4 else { return u16(tag) + u16(type) + u32(UInt32(count)) + payload }
                defer {
                    data += payload
                    dataOffset += payload.count
                }
                return u16(tag) + u16(type) + u32(UInt32(count)) + u32(UInt32(dataOffset))
            }
            var out: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
            out += u16(UInt16(mainEntries))
            for (tag, value) in main { out += entry(tag, value) }
            if !exif.isEmpty { out += u16(0x8769) + u16(4) + u32(1) + u32(UInt32(exifOffset)) }
            out += u32(0)
            if !exif.isEmpty {
                out += u16(UInt16(exif.count))
                for (tag, value) in exif { out += entry(tag, value) }
                out += u32(0)
            }
            return out + data
        }
    }

    static let camera: TIFFBlock = {
        var block = TIFFBlock()
        block.main = [
            (0x010F, .text("Canon")), (0x0110, .text("Canon EOS R5")), (0x0131, .text("Darktable 4.4")),
            (0x0132, .text("2024:05:01 10:00:00")), (0x013B, .text("A. Photographer")), (0x8298, .text("(c) A. Photographer")),
        ]
        block.exif = [
            (0x829A, .rational(10, 2500)), (0x829D, .rational(28, 10)), (0x8827, .short(400)),
            (0x9003, .text("2024:04:30 18:42:07")), (0x920A, .rational(50, 1)), (0xA434, .text("RF50mm F1.8 STM")),
        ]
        return block
    }()

    @Test("the camera, lens, dates, people and exposure are read in either byte order", arguments: [true, false])
    func fields(bigEndian: Bool) throws {
        var block = Self.camera
        block.bigEndian = bigEndian
        let fields = try #require(ExifFields(tiff: Data(block.bytes)))
        #expect(fields.make == "Canon" && fields.model == "Canon EOS R5" && fields.lensModel == "RF50mm F1.8 STM")
        #expect(fields.software == "Darktable 4.4" && fields.artist == "A. Photographer" && fields.copyright == "(c) A. Photographer")
        #expect(fields.dateTime == "2024:04:30 18:42:07", "the original date before the file's")
        #expect(fields.exposureTime == "1/250" && fields.fNumber == 2.8 && fields.iso == 400 && fields.focalLength == 50)
    }

    @Test("exposures read as photographers write them", arguments: [(1, 3, "1/3"), (3, 10, "0.3"), (2, 1, "2"), (13, 10, "1.3")])
    func exposures(numerator: UInt32, denominator: UInt32, expected: String) throws {
        var block = TIFFBlock()
        block.exif = [(0x829A, .rational(numerator, denominator))]
        #expect(ExifFields(tiff: Data(block.bytes))?.exposureTime == expected)
    }

    @Test("a block of the orientation alone, or not TIFF, has no fields")
    func none() {
        #expect(ExifFields(tiff: Data(ExifOrientationBlock.bytes(6))) == nil)
        #expect(ExifFields(tiff: Data("not a TIFF block".utf8)) == nil)
        #expect(ExifFields(tiff: Data()) == nil)
    }

    @Test("hostile blocks: offsets past the end, huge counts, wrong types, an Exif IFD pointing at IFD0, text not UTF-8")
    func hostile() throws {
        var block = Self.camera
        block.main[0] = (0x010F, .short(7))  // Make as a number: not text
        block.main[1] = (0x0110, .text(String(repeating: "x", count: 300)))  // too long for a camera field
        var bytes = block.bytes
        // The Artist's text offset past the end of the block.
        let artistEntry = 8 + 2 + 4 * 12
        bytes.replaceSubrange((artistEntry + 8)..<(artistEntry + 12), with: [0x00, 0x01, 0x00, 0x00])
        // The copyright's count claims four billion bytes.
        let copyrightEntry = 8 + 2 + 5 * 12
        bytes.replaceSubrange((copyrightEntry + 4)..<(copyrightEntry + 8), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let fields = try #require(ExifFields(tiff: Data(bytes)))
        #expect(fields.make == nil && fields.model == nil && fields.artist == nil && fields.copyright == nil)
        #expect(fields.software == "Darktable 4.4" && fields.iso == 400, "the rest is still read")

        // IFD0's count far past the block: the entries that fit are read.
        var looping = TIFFBlock()
        looping.main = [(0x010F, .text("Nikon"))]
        var counted = looping.bytes
        counted.replaceSubrange(8..<10, with: [0x7F, 0xFF])
        #expect(ExifFields(tiff: Data(counted))?.make == "Nikon")
        // The Exif IFD's pointer back at IFD0: not read as the Exif IFD.
        looping.exif = [(0x8827, .short(100))]
        var pointing = looping.bytes
        let pointer = 8 + 2 + 12 + 8
        pointing.replaceSubrange(pointer..<(pointer + 4), with: [0, 0, 0, 8])
        let pointed = try #require(ExifFields(tiff: Data(pointing)))
        #expect(pointed.make == "Nikon" && pointed.iso == nil)

        var invalid = TIFFBlock()
        invalid.main = [(0x010F, .text("Le\u{E9}ca"))]
        var latin1 = invalid.bytes
        let e = try #require(latin1.firstIndex(of: 0xC3))
        latin1.replaceSubrange(e...(e + 1), with: [0xE9, 0x20])  // ISO 8859-1, not UTF-8
        #expect(ExifFields(tiff: Data(latin1))?.make == nil)
    }

    @Test("a still PNG's eXIf chunk, before or after the image data, turns its header as the decode turns it", arguments: [true, false])
    func pngOrientation(beforeImageData: Bool) throws {
        let png = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 16, height: 12))
        let chunk = PNGChunks.chunk("eXIf", ExifOrientationBlock.bytes(6))
        let file = beforeImageData ? Data(png.prefix(33)) + chunk + png.dropFirst(33) : PNGChunks.inserting(chunk, beforeIENDOf: png)
        let header = try ImageDecoderRegistry.standard.header(of: file)
        #expect(header.info.orientation == .right)
        #expect(header.displaySize == PixelSize(width: 12, height: 16))
        let turned = try ImageDecoderRegistry.standard.decode(file, options: DecodeOptions(appliesOrientation: true))
        #expect(turned.bitmap.size == header.displaySize)
    }

    @Test("JPEG and PNG headers carry their EXIF block")
    func headers() throws {
        let tiff = Self.camera.bytes
        let bitmap = try SyntheticImage.photo(width: 16, height: 12)
        // JPEG: an APP1 segment after SOI.
        let jpeg = try JPEGFixtureEncoder().encode(bitmap)
        let segment: [UInt8] = Array("Exif\0\0".utf8) + tiff
        var tagged = Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8((segment.count + 2) >> 8), UInt8((segment.count + 2) & 0xFF)])
        tagged.append(contentsOf: segment)
        tagged.append(jpeg.dropFirst(2))
        let jpegHeader = try ImageDecoderRegistry.standard.header(of: tagged)
        #expect(jpegHeader.exif == Data(tiff))
        #expect(jpegHeader.exif.flatMap(ExifFields.init(tiff:))?.model == "Canon EOS R5")
        // PNG: an eXIf chunk before the image data.
        let png = try PNGFixtureEncoder().encode(bitmap)
        var withChunk = Data(png.prefix(33))
        withChunk.append(contentsOf: PNGChunks.chunk("eXIf", tiff))
        withChunk.append(png.dropFirst(33))
        #expect(try ImageDecoderRegistry.standard.header(of: withChunk).exif == Data(tiff))
        // No block: nil.
        #expect(try ImageDecoderRegistry.standard.header(of: png).exif == nil)

    }
}
