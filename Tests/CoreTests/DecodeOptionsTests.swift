import Testing
import WebImageCore

@Suite("Decode options")
struct DecodeOptionsTests {
    @Test(
        "maxPixelSize bounds the longer side and keeps the aspect ratio",
        arguments: [
            (PixelSize(width: 4000, height: 3000), 500, PixelSize(width: 500, height: 375)),
            (PixelSize(width: 3000, height: 4000), 500, PixelSize(width: 375, height: 500)),
            (PixelSize(width: 100, height: 50), 500, PixelSize(width: 100, height: 50)),
            (PixelSize(width: 10000, height: 1), 100, PixelSize(width: 100, height: 1)),
            (PixelSize(width: 640, height: 480), 640, PixelSize(width: 640, height: 480)),
        ])
    func targetSize(source: PixelSize, limit: Int, expected: PixelSize) {
        #expect(DecodeOptions(maxPixelSize: limit).targetSize(for: source) == expected)
    }

    @Test("no maxPixelSize keeps the full size")
    func fullSize() {
        #expect(DecodeOptions().targetSize(for: PixelSize(width: 9000, height: 10)) == PixelSize(width: 9000, height: 10))
    }

    @Test("the pixel limit admits its own value and refuses one more")
    func pixelLimit() throws {
        let options = DecodeOptions(maxPixelCount: 100)
        try options.checkPixelCount(100, "a 10x10 image")
        #expect(throws: ImageDecodingError.self) { try options.checkPixelCount(101, "too much") }
        #expect(DecodeOptions.default.maxPixelCount == 64 * 1024 * 1024)
    }

    @Test("options are keys: different options hash differently")
    func hashable() {
        let set: Set = [DecodeOptions(), DecodeOptions(maxPixelSize: 100), DecodeOptions(firstFrameOnly: true), DecodeOptions()]
        #expect(set.count == 3)
    }

    @Test("pixel counts saturate instead of overflowing")
    func saturation() {
        #expect(PixelSize(width: Int.max, height: 2).pixelCount == Int.max)
        #expect(PixelSize(width: 65535, height: 65535).pixelCount == 65535 * 65535)
    }
}
