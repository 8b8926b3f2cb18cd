import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

@Suite("PNGEncoder writes files libpng reads back exactly")
struct PNGEncoderTests {
    /// IHDR fields at fixed offsets: 8-byte signature, then length and type.
    private func colorType(_ png: Data) -> UInt8 { png[png.startIndex + 25] }
    private func interlaceMethod(_ png: Data) -> UInt8 { png[png.startIndex + 28] }

    @Test("RGBA with varied alpha round-trips through libpng's simplified API")
    func rgbaRoundTrip() throws {
        let bitmap = try SyntheticImage.translucent(width: 37, height: 23, seed: 1)
        let png = try PNGEncoder().encode(bitmap)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(colorType(png) == 6)
        let read = try LibPNGReadback.pixels(png)
        #expect(read.width == 37 && read.height == 23)
        #expect(read.bytes == bitmap.packedBytes)
    }

    @Test("gray bitmaps are written as colour type gray and round-trip")
    func grayRoundTrip() throws {
        let bitmap = try SyntheticImage.grayPhoto(width: 20, height: 31, seed: 2)
        let png = try PNGEncoder().encode(bitmap)
        #expect(colorType(png) == 0)
        let read = try LibPNGReadback.pixels(png, gray: true)
        #expect(read.bytes == bitmap.packedBytes)
    }

    @Test("row padding is skipped, not written")
    func paddedRows() throws {
        let width = 5
        let height = 4
        let stride = width * 4 + 12
        let storage = try #require(PixelStorage(uninitializedByteCount: stride * height))
        storage.withUnsafeMutableBytes { bytes in
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
        }
        let bitmap = ImageBitmap(width: width, height: height, pixelFormat: .rgba8, bytesPerRow: stride, storage: storage)
        let read = try LibPNGReadback.pixels(try PNGEncoder().encode(bitmap))
        #expect(read.bytes == bitmap.packedBytes)
    }

    @Test("every compression level gives the same pixels; harder levels give smaller files")
    func compressionLevels() throws {
        let bitmap = try SyntheticImage.photo(width: 96, height: 64, seed: 3)
        let stored = try PNGEncoder(compression: PNGEncoder.Compression(zlibLevel: 0)).encode(bitmap)
        let fast = try PNGEncoder(compression: .fast).encode(bitmap)
        let standard = try PNGEncoder().encode(bitmap)
        let smallest = try PNGEncoder(compression: .smallest).encode(bitmap)
        for png in [stored, fast, standard, smallest] {
            #expect(try LibPNGReadback.pixels(png).bytes == bitmap.packedBytes)
        }
        #expect(stored.count > fast.count)
        #expect(smallest.count <= fast.count)
        #expect(PNGEncoder.Compression(zlibLevel: 42).zlibLevel == 9)
        #expect(PNGEncoder.Compression.default.zlibLevel == nil)
    }

    @Test("Adam7 fixtures are marked interlaced and hold the same pixels")
    func interlaced() throws {
        let bitmap = try SyntheticImage.translucent(width: 19, height: 13, seed: 4)
        let plain = try PNGFixtureEncoder().encode(bitmap)
        let adam7 = try PNGFixtureEncoder(interlaced: true).encode(bitmap)
        #expect(interlaceMethod(plain) == 0)
        #expect(interlaceMethod(adam7) == 1)
        #expect(try LibPNGReadback.pixels(adam7).bytes == bitmap.packedBytes)
    }

    @Test("RGB fixtures drop alpha: colour type 2, same colours, opaque when read")
    func rgbFixture() throws {
        let bitmap = try SyntheticImage.photo(width: 23, height: 11, seed: 17)
        let png = try PNGFixtureEncoder(rgb: true).encode(bitmap)
        #expect(colorType(png) == 2)
        #expect(try LibPNGReadback.pixels(png).bytes == bitmap.packedBytes)
        #expect(png.count < (try PNGFixtureEncoder().encode(bitmap)).count)
    }

    @Test("sides over libpng's default reader limit of a million pixels are written")
    func wideImage() throws {
        let width = 1_000_001
        let bitmap = try ImageBitmap(width: width, height: 1, pixelFormat: .gray8) { bytes, _ in
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i) }
        }
        let png = try PNGEncoder(compression: .fast).encode(bitmap)
        let stored = png[(png.startIndex + 16)..<(png.startIndex + 20)].reduce(0) { $0 << 8 | Int($1) }
        #expect(stored == width)
    }

    @Test("a 1x1 image round-trips")
    func singlePixel() throws {
        let bitmap = try ImageBitmap(width: 1, height: 1, pixelFormat: .rgba8) { bytes, _ in
            bytes.copyBytes(from: [10, 20, 30, 40])
        }
        #expect(try LibPNGReadback.pixels(try PNGEncoder().encode(bitmap)).bytes == [10, 20, 30, 40])
    }

    @Test("a zero-sized image is a typed encodingFailed error from libpng, not a crash")
    func zeroSize() throws {
        let bitmap = try ImageBitmap(width: 0, height: 5, pixelFormat: .rgba8) { _, _ in }
        let error = #expect(throws: ImageDecodingError.self) { try PNGEncoder().encode(bitmap) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.format == .png)
        #expect(error?.message.localizedCaseInsensitiveContains("width") == true, "\(String(describing: error))")
    }
}
