import Foundation
import Testing
import WebImageCore
import WebImageFixtures

@Suite("Synthetic fixture images are deterministic and look like what they stand for")
struct SyntheticImageTests {
    @Test("the same seed gives the same pixels; another seed gives others")
    func deterministic() throws {
        let a = try SyntheticImage.photo(width: 64, height: 40, seed: 42)
        let b = try SyntheticImage.photo(width: 64, height: 40, seed: 42)
        let c = try SyntheticImage.photo(width: 64, height: 40, seed: 43)
        #expect(a == b)
        #expect(a != c)
        #expect(
            try SyntheticImage.translucent(width: 30, height: 30, seed: 1) == SyntheticImage.translucent(width: 30, height: 30, seed: 1))
    }

    @Test("photos are opaque and use a wide range of values")
    func photoContent() throws {
        let bytes = try SyntheticImage.photo(width: 120, height: 90, seed: 13).packedBytes
        let alpha = stride(from: 3, to: bytes.count, by: 4).map { bytes[$0] }
        #expect(alpha.allSatisfy { $0 == 255 })
        let red = stride(from: 0, to: bytes.count, by: 4).map { Int(bytes[$0]) }
        #expect(Set(red).count > 100)
        #expect((red.max() ?? 0) - (red.min() ?? 0) > 120)
    }

    @Test("translucent images hold transparent, opaque and many partial alpha levels")
    func translucentAlpha() throws {
        let bytes = try SyntheticImage.translucent(width: 100, height: 80, seed: 14).packedBytes
        let alpha = Set(stride(from: 3, to: bytes.count, by: 4).map { bytes[$0] })
        #expect(alpha.contains(0))
        #expect(alpha.contains(255))
        #expect(alpha.subtracting([0, 255]).count > 64)
    }

    @Test("JPEG at quality 85, 4:2:0 compresses a photo to about 1-2 bits per pixel")
    func photoLikeCompression() throws {
        let photo = try SyntheticImage.photo(width: 640, height: 480, seed: 15)
        let jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(photo)
        let bitsPerPixel = Double(jpeg.count * 8) / Double(640 * 480)
        #expect((0.8...2.5).contains(bitsPerPixel), "\(bitsPerPixel) bits per pixel")
    }

    @Test("negative sizes are a typed error, not a trap")
    func negativeSizes() throws {
        #expect(throws: ImageDecodingError(.invalidDimensions, "cannot make a -1x5 image")) {
            try SyntheticImage.photo(width: -1, height: 5)
        }
        let error = #expect(throws: ImageDecodingError.self) { try SyntheticAnimation.make(width: 4, height: 4, frameCount: -2) }
        #expect(error?.code == .invalidDimensions)
        #expect(try SyntheticImage.translucent(width: 0, height: 3).packedBytes.isEmpty)
    }

    @Test("gray photos are the luma of the colour photo")
    func grayPhoto() throws {
        let color = try SyntheticImage.photo(width: 8, height: 8, seed: 16).packedBytes
        let gray = try SyntheticImage.grayPhoto(width: 8, height: 8, seed: 16)
        #expect(gray.pixelFormat == .gray8)
        let expected = (299 * Int(color[0]) + 587 * Int(color[1]) + 114 * Int(color[2]) + 500) / 1000
        #expect(Int(gray.packedBytes[0]) == expected)
    }
}
