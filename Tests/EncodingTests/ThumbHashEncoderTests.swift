import Foundation
import Testing
import WebImageCore
import WebImageEncoding

/// The expected hashes are the reference implementation's: Evan Wallace's `thumbhash`
/// (its JavaScript `rgbaToThumbHash(w, h, rgba)` on the same pixels), base64. The images
/// have no cosine factor that is zero in exact arithmetic: such a factor (of a flat
/// image, or a ramp along one axis) is rounding noise scaled up, and its nibble differs
/// between math libraries.
@Suite("ThumbHash")
struct ThumbHashEncoderTests {
    static func hash(_ bitmap: ImageBitmap) throws -> String {
        try ThumbHashEncoder().encode(bitmap).base64EncodedString()
    }

    @Test("patterned landscape, portrait, wide, tall and translucent images hash as the reference implementation hashes them")
    func reference() throws {
        let pattern = try EncodingTestImages.rgba(24, 17) { x, y in [x * 7 + y * 3, x * x + y, 255 - x * 5, 255] }
        #expect(try Self.hash(pattern) == "4BQKdYhAp2aFh4iIiHiIh2B3aE+H")
        #expect(try Self.hash(EncodingTestImages.rgba(20, 40) { x, y in [x * 12, 200, y * 6, 255] }) == "I1kJZBhwB4h4iIeIeHh0jweIhw==")
        #expect(
            try Self.hash(EncodingTestImages.rgba(40, 12) { x, y in [x * x * 3 + y * 7, x * y * 11, y * y * 9 + x, 255] })
                == "3BcKKoQ1Z1VgdxeHV2+O4/Q=")
        #expect(
            try Self.hash(EncodingTestImages.rgba(9, 60) { x, y in [x * y * 3 + 17, y * y + x * 5, 90 + x * x * y, 255] })
                == "nOcFGQYQYQaVgnNhdVAFoZc=")
        let translucent = try EncodingTestImages.rgba(24, 17) { x, y in [x * 7 + y * 3, x * x + y, 255 - x * 5, x * y * 5 + 40] }
        #expect(try Self.hash(translucent) == "IRWGNIQHQMiFiIiICHeI9oUnMAN1JmViAA==")
    }

    @Test("a flat image's hash holds its colour: the header's luminance and colour differences give it back")
    func flatColour() throws {
        let hash = try ThumbHashEncoder().encode(EncodingTestImages.rgba(8, 6) { _, _ in [200, 100, 50, 255] })
        let header = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let l = Double(header & 63) / 63
        let p = Double(header >> 6 & 63) / 31.5 - 1
        let q = Double(header >> 12 & 63) / 31.5 - 1
        let b = l - 2.0 / 3 * p
        let r = (3 * l - b + q) / 2
        let g = r - q
        #expect(abs(r * 255 - 200) < 6 && abs(g * 255 - 100) < 6 && abs(b * 255 - 50) < 6, "\(r * 255), \(g * 255), \(b * 255)")
        #expect(header >> 23 == 0, "opaque")
        #expect(hash[4] >> 7 == 1, "landscape")
    }

    @Test("a bitmap over 100 pixels a side is sampled down first: a flat one hashes as a small flat one")
    func largeBitmaps() throws {
        let large = try EncodingTestImages.rgba(400, 300) { _, _ in [30, 120, 220, 255] }
        let small = try EncodingTestImages.rgba(100, 75) { _, _ in [30, 120, 220, 255] }
        #expect(try Self.hash(large) == Self.hash(small))
    }

    @Test("a gray bitmap hashes as the same levels in RGBA")
    func gray() throws {
        let gray = try ImageBitmap(width: 16, height: 12, pixelFormat: .gray8) { bytes, row in
            for y in 0..<12 { for x in 0..<16 { bytes[y * row + x] = UInt8(x * 10 + y) } }
        }
        let rgba = try EncodingTestImages.rgba(16, 12) { x, y in [x * 10 + y, x * 10 + y, x * 10 + y, 255] }
        #expect(try Self.hash(gray) == Self.hash(rgba))
    }
}
