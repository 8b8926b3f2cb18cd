import Testing
import WebImageCore
import WebImageEncoding

/// The expected hashes are the reference implementation's: the `blurhash` package on
/// PyPI (`blurhash.encode(rows, components_x, components_y)` on the same pixels).
@Suite("BlurHash")
struct BlurHashEncoderTests {
    @Test("a flat colour, a ramp and a pattern hash as the reference implementation hashes them")
    func reference() throws {
        let red = try EncodingTestImages.rgba(8, 6) { _, _ in [255, 0, 0] }
        #expect(try BlurHashEncoder().encode(red) == "LsTI:j]9fQ]9|csUfQsUfQfQfQfQ")
        // One component: the size flag, no AC range, and the mean colour, (255 << 16) in
        // base 83.
        #expect(try BlurHashEncoder(componentsX: 1, componentsY: 1).encode(red) == "00TI:j")
        let ramp = try EncodingTestImages.rgba(32, 32) { x, _ in [x * 8, x * 8, x * 8] }
        #expect(try BlurHashEncoder().encode(ramp) == "LxH2cr00xuWBofWBj[fQfQfQfQfQ")
        let pattern = try EncodingTestImages.rgba(24, 17) { x, y in [x * 7 + y * 3, x * x + y, 255 - x * 5] }
        #expect(try BlurHashEncoder(componentsX: 5, componentsY: 4).encode(pattern) == "VwDmCcD{nCbdcCSjjcjufkj[azjtfQfQfQoha$jbfkfk")
    }

    @Test("gray reads as its three equal channels")
    func gray() throws {
        let ramp = try EncodingTestImages.rgba(32, 32) { x, _ in [x * 8, x * 8, x * 8] }
        let gray = try ImageBitmap(width: 32, height: 32, pixelFormat: .gray8) { bytes, row in
            for y in 0..<32 { for x in 0..<32 { bytes[y * row + x] = UInt8(x * 8) } }
        }
        #expect(try BlurHashEncoder().encode(gray) == BlurHashEncoder().encode(ramp))
    }
}
