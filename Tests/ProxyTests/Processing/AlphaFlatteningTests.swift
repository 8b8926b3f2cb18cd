import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Flattening alpha for JPEG")
struct AlphaFlatteningTests {
    func bitmap(_ pixel: [UInt8]) throws -> ImageBitmap {
        try ImageBitmap(width: 2, height: 1, pixelFormat: .rgba8) { bytes, _ in
            for x in 0..<2 { for channel in 0..<4 { bytes[x * 4 + channel] = pixel[channel] } }
        }
    }

    @Test("a transparent pixel becomes white, a half-transparent one half its colour, whatever colour it hid")
    func overWhite() throws {
        #expect(try AlphaFlattening.overWhite(bitmap([0, 0, 0, 0])).packedBytes == [255, 255, 255, 255, 255, 255, 255, 255])
        #expect(try AlphaFlattening.overWhite(bitmap([0, 0, 0, 128])).packedBytes.prefix(4) == [127, 127, 127, 255])
    }

    @Test("an opaque image is returned as it is")
    func opaque() throws {
        let image = try bitmap([10, 20, 30, 255])
        #expect(!AlphaFlattening.hasTransparency(image))
        #expect(try AlphaFlattening.overWhite(image).storage === image.storage)
    }
}
