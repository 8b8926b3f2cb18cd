import Foundation
import Testing
import WebImageCore

@testable import WebImageDecoding

@Suite("Blur, sharpen and pixelate")
struct FilterTransformerTests {
    static func gray(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt8) throws -> DecodedImage {
        let bitmap = try ImageBitmap(width: width, height: height, pixelFormat: .gray8) { bytes, row in
            for y in 0..<height { for x in 0..<width { bytes[y * row + x] = value(x, y) } }
        }
        return DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap)])
    }

    @Test("the kernel is a normalised Gaussian cut at a fifth of its peak")
    func kernel() {
        let kernel = GaussianKernel(sigma: 1)
        // √(2 ln 5) = 1.79: a radius of 2.
        #expect(kernel.radius == 2)
        #expect(abs(kernel.weights.reduce(0, +) - 1) < 1e-6)
        #expect(abs(kernel.weights[0] / kernel.weights[2] - Float(exp(-2.0))) < 1e-6)
        #expect(GaussianKernel(sigma: 10).radius == 18)
    }

    @Test("a blur spreads a bright pixel symmetrically and keeps the total light")
    func blurSpreads() throws {
        let dot = try Self.gray(9, 9) { x, y in x == 4 && y == 4 ? 255 : 0 }
        let blurred = try BlurTransformer(sigma: 1).transform(dot).bitmap.packedBytes
        #expect(blurred[4 * 9 + 4] < 255 && blurred[4 * 9 + 4] > 30)
        #expect(blurred[4 * 9 + 3] == blurred[4 * 9 + 5] && blurred[3 * 9 + 4] == blurred[5 * 9 + 4])
        #expect(blurred[4 * 9 + 3] > 0)
        #expect(blurred[0] == 0, "beyond the kernel's reach nothing changes")
        let total = blurred.reduce(0) { $0 + Int($1) }
        #expect(abs(total - 255) <= 12, "rounding of 25 pixels at most")
    }

    @Test("a blur does not bleed the colour of transparent pixels")
    func blurPremultiplies() throws {
        // Red, opaque, beside pixels that are transparent but green.
        let bitmap = try ImageBitmap(width: 5, height: 1, pixelFormat: .rgba8) { bytes, _ in
            for x in 0..<5 { bytes.storeBytes(of: x == 2 ? 0xFF00_00FF : 0x0000_FF00, toByteOffset: x * 4, as: UInt32.self) }
        }
        let blurred = try BlurTransformer(sigma: 1).transform(DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap)])).bitmap
        let pixels = blurred.packedBytes
        for x in 0..<5 where pixels[x * 4 + 3] > 0 {
            #expect(pixels[x * 4 + 1] == 0, "no green at \(x): \(Array(pixels[(x * 4)..<(x * 4 + 4)]))")
            #expect(pixels[x * 4] == 255, "pure red at \(x)")
        }
    }

    @Test("sharpening overshoots at an edge and leaves flat areas alone")
    func sharpenEdge() throws {
        let step = try Self.gray(12, 3) { x, _ in x < 6 ? 100 : 150 }
        let sharpened = try SharpenTransformer(sigma: 1).transform(step).bitmap.packedBytes
        let middle = Array(sharpened[12..<24])
        #expect(middle[5] < 100 && middle[6] > 150)
        #expect(middle[0] == 100 && middle[11] == 150)
    }

    @Test("pixelating averages each block from the top left; edge blocks average what they cover")
    func pixelate() throws {
        let ramp = try Self.gray(5, 3) { x, y in UInt8(x * 10 + y * 100) }
        let blocks = try PixelateTransformer(blockSize: 2).transform(ramp).bitmap.packedBytes
        // Block (0,0): 0, 10, 100, 110 -> 55. Block (4,0): 40, 140 -> 90. Block (0,2): 200, 210 -> 205.
        #expect(Array(blocks[0..<5]) == [55, 55, 75, 75, 90])
        #expect(Array(blocks[5..<10]) == [55, 55, 75, 75, 90])
        #expect(Array(blocks[10..<15]) == [205, 205, 225, 225, 240])
        #expect(try PixelateTransformer(blockSize: 1).transform(ramp).bitmap == ramp.bitmap)
    }
}
