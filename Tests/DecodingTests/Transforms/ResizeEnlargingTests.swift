import Testing
import WebImageCore
import WebImageDecoding

@Suite("Resizing up, when asked")
struct ResizeEnlargingTests {
    static func image(_ width: Int, _ height: Int, _ format: PixelFormat = .gray8, _ value: (Int, Int) -> [UInt8]) throws -> DecodedImage {
        let bitmap = try ImageBitmap(width: width, height: height, pixelFormat: format) { bytes, row in
            for y in 0..<height {
                for x in 0..<width {
                    for (channel, byte) in value(x, y).enumerated() { bytes[y * row + x * format.bytesPerPixel + channel] = byte }
                }
            }
        }
        return DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap)])
    }

    @Test("without enlarges a small image keeps its size; with it, fit, fill and stretch reach the box")
    func sizes() throws {
        let small = try Self.image(4, 2) { _, _ in [90] }
        #expect(try ResizeTransformer(width: 10, height: 10, mode: .fit).transform(small).size == PixelSize(width: 4, height: 2))
        #expect(
            try ResizeTransformer(width: 10, height: 10, mode: .fit, enlarges: true).transform(small).size
                == PixelSize(width: 10, height: 5))
        #expect(
            try ResizeTransformer(width: 6, height: 6, mode: .fill, enlarges: true).transform(small).size == PixelSize(width: 6, height: 6))
        #expect(
            try ResizeTransformer(width: 9, height: 7, mode: .stretch, enlarges: true).transform(small).size
                == PixelSize(width: 9, height: 7))
        #expect(ResizeTransformer(width: 9, height: 7, enlarges: true).identifier != ResizeTransformer(width: 9, height: 7).identifier)
    }

    @Test("a flat image stays flat, in gray and in RGBA with alpha")
    func flat() throws {
        let gray = try ResizeTransformer(width: 9, height: 6, enlarges: true).transform(Self.image(3, 2) { _, _ in [77] })
        #expect(gray.bitmap.packedBytes.allSatisfy { $0 == 77 })
        let red = try ResizeTransformer(width: 9, height: 6, enlarges: true).transform(
            Self.image(3, 2, .rgba8) { _, _ in [200, 10, 10, 128] })
        let pixels = red.bitmap.packedBytes
        for pixel in stride(from: 0, to: pixels.count, by: 4) {
            #expect(Array(pixels[pixel..<(pixel + 4)]) == [200, 10, 10, 128])
        }
    }

    @Test("a ramp enlarged rises step by step from its first value to its last")
    func ramp() throws {
        let ramp = try Self.image(4, 1) { x, _ in [UInt8(x * 85)] }
        let grown = try ResizeTransformer(width: 8, height: 1, mode: .stretch, enlarges: true).transform(ramp).bitmap.packedBytes
        #expect(grown.count == 8)
        #expect(zip(grown, grown.dropFirst()).allSatisfy { $0 <= $1 }, "\(grown)")
        #expect(grown[0] <= 20 && grown[7] >= 235, "\(grown)")
    }
}
