import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

@Suite("PNG decoder behaviour", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct PNGDecoderTests {
    static func code(of body: () throws -> DecodedImage) -> ImageDecodingError.Code? {
        if case .failure(let error) = Result.capture(body) { return error.code }
        return nil
    }

    @Test("errors say what is wrong")
    func typedErrors() throws {
        #expect(Self.code { try PNGDecoder().decode(Data()) } == .empty)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/pngsuite/xs1n0g01.png")) } == .invalidHeader)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/derived/zero_width.png")) } == .invalidDimensions)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/derived/huge_dims_100000x100000.png")) } == .tooLarge)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/derived/basn2c08_trunc_half.png")) } == .truncated)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/derived/basn2c08_corrupt_zlib.png")) } == .corrupt)
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/libpng/crashers/badcrc.png")) } == .corrupt)
    }

    @Test("the pixel limit is checked from the header")
    func pixelLimit() throws {
        let data = try Corpus.data("png/pngsuite/basn2c08.png")  // 32x32
        #expect(Self.code { try PNGDecoder().decode(data, options: DecodeOptions(maxPixelCount: 32 * 32 - 1)) } == .tooLarge)
        #expect(try PNGDecoder().decode(data, options: DecodeOptions(maxPixelCount: 32 * 32)).size == PixelSize(width: 32, height: 32))
    }

    @Test("maxPixelSize scales down keeping the aspect ratio, and never up")
    func downsampling() throws {
        let data = try Corpus.data("png/pillow/hopper.png")  // 128x128
        let small = try PNGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 50))
        #expect(small.size == PixelSize(width: 50, height: 50))
        #expect(small.sourceSize == PixelSize(width: 128, height: 128))
        let same = try PNGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 1000))
        #expect(same.size == PixelSize(width: 128, height: 128))
    }

    @Test("a 2:1 downsample averages each 2x2 block, weighting colour by alpha")
    func areaAverage() throws {
        let data = try Corpus.data("png/pngsuite/basn6a08.png")  // 32x32 RGBA
        let full = try PNGDecoder().decode(data).bitmap.packedBytes
        let half = try PNGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 16)).bitmap.packedBytes
        for (x, y) in [(0, 0), (5, 9), (15, 15)] {
            let corners = [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)]
            let pixels = corners.map { px, py in Array(full[(py * 32 + px) * 4..<(py * 32 + px) * 4 + 4]).map(Double.init) }
            let alpha = pixels.map { $0[3] }.reduce(0, +)
            let got = Array(half[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 4]).map(Double.init)
            #expect(abs(got[3] - alpha / 4) <= 0.5)
            if alpha > 0 {
                for c in 0..<3 {
                    let expected = pixels.map { $0[c] * $0[3] }.reduce(0, +) / alpha
                    #expect(abs(got[c] - expected) <= 0.5, "pixel \(x),\(y) channel \(c)")
                }
            }
        }
    }

    @Test("gray8 output is one byte of luminance per pixel")
    func grayOutput() throws {
        let data = try Corpus.data("png/pngsuite/basn0g08.png")  // 8-bit gray
        let rgba = try PNGDecoder().decode(data).bitmap.packedBytes
        let gray = try PNGDecoder().decode(data, options: DecodeOptions(pixelFormat: .gray8))
        #expect(gray.bitmap.pixelFormat == .gray8)
        #expect(gray.bitmap.packedBytes == stride(from: 0, to: rgba.count, by: 4).map { rgba[$0] })
    }

    @Test("an eXIf orientation is exposed, and applied only on request")
    func exifOrientation() throws {
        let base = try Corpus.data("png/pngsuite/basn2c08.png")
        for littleEndian in [false, true] {
            let data = PNGChunks.inserting(
                PNGChunks.chunk("eXIf", PNGChunks.exifOrientation(6, littleEndian: littleEndian)), beforeIENDOf: base)
            let exposed = try PNGDecoder().decode(data)
            #expect(exposed.orientation == .right)
            #expect(exposed.bitmap == (try PNGDecoder().decode(base)).bitmap, "pixels stay as stored")

            let applied = try PNGDecoder().decode(data, options: DecodeOptions(appliesOrientation: true))
            #expect(applied.orientation == .up)
            // Orientation 6: turned 90 degrees clockwise, so the stored bottom-left
            // pixel is displayed top-left.
            let stored = exposed.bitmap.packedBytes
            let shown = applied.bitmap.packedBytes
            #expect(Array(shown[0..<4]) == Array(stored[(31 * 32) * 4..<(31 * 32) * 4 + 4]))
        }
    }

    @Test("trailing bytes after IEND are ignored; pixels count only once their IDAT chunk passed its CRC")
    func trailingAndMissingEnd() throws {
        let data = try Corpus.data("png/pngsuite/basn2c08.png")
        let reference = try PNGDecoder().decode(data).bitmap
        #expect(try PNGDecoder().decode(data + Data(repeating: 0x55, count: 100)).bitmap == reference)
        // IEND cut after its type: the last IDAT was read through its CRC, no pixel in doubt.
        #expect(try PNGDecoder().decode(data.dropLast(4)).bitmap == reference)
        // IEND missing entirely: the last IDAT was read whole, CRC included, and every
        // row is in, so the image decodes.
        #expect(try PNGDecoder().decode(try Corpus.data("png/derived/basn2c08_no_iend.png")).bitmap == reference)
        // A lying IDAT length: every row inflates, but the chunk never ends.
        #expect(Self.code { try PNGDecoder().decode(try Corpus.data("png/libpng/crashers/huge_IDAT.png")) } == .truncated)
    }
}
