import Testing
import WebImageCore
import WebImageDecoding

@Suite("Turning and mirroring an image")
struct OrientationTransformerTests {
    /// Stored 3x2:  1 2 3
    ///              4 5 6
    static func image() throws -> DecodedImage {
        let bitmap = try ImageBitmap(width: 3, height: 2, pixelFormat: .gray8) { bytes, _ in bytes.copyBytes(from: [1, 2, 3, 4, 5, 6]) }
        return DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap), ImageFrame(bitmap: bitmap)])
    }

    @Test(
        "a turn clockwise, then mirrors, drawn by hand",
        arguments: [
            (0, false, false, 3, [1, 2, 3, 4, 5, 6] as [UInt8]),
            // A quarter clockwise: the left column becomes the top row, bottom first.
            (90, false, false, 2, [4, 1, 5, 2, 6, 3]),
            (180, false, false, 3, [6, 5, 4, 3, 2, 1]),
            (270, false, false, 2, [3, 6, 2, 5, 1, 4]),
            (-90, false, false, 2, [3, 6, 2, 5, 1, 4]),
            (450, false, false, 2, [4, 1, 5, 2, 6, 3]),
            (0, true, false, 3, [3, 2, 1, 6, 5, 4]),
            (0, false, true, 3, [4, 5, 6, 1, 2, 3]),
            (0, true, true, 3, [6, 5, 4, 3, 2, 1]),
            // A quarter clockwise (4 1 / 5 2 / 6 3), then left to right: 1 4 / 2 5 / 3 6.
            (90, true, false, 2, [1, 4, 2, 5, 3, 6]),
            // Then top to bottom instead: 6 3 / 5 2 / 4 1.
            (90, false, true, 2, [6, 3, 5, 2, 4, 1]),
            // A quarter anticlockwise (3 6 / 2 5 / 1 4), then left to right: 6 3 / 5 2 / 4 1.
            (270, true, false, 2, [6, 3, 5, 2, 4, 1]),
            (180, true, false, 3, [4, 5, 6, 1, 2, 3]),
        ])
    func turns(degrees: Int, horizontally: Bool, vertically: Bool, width: Int, expected: [UInt8]) throws {
        let transformer = try #require(
            OrientationTransformer(turningClockwise: degrees, mirroringHorizontally: horizontally, mirroringVertically: vertically))
        let turned = try transformer.transform(Self.image())
        #expect(turned.frames.count == 2)
        for frame in turned.frames {
            #expect(frame.bitmap.width == width)
            #expect(frame.bitmap.packedBytes == expected)
        }
    }

    @Test("a turn that is not a multiple of 90 degrees is refused")
    func notAQuarter() {
        #expect(OrientationTransformer(turningClockwise: 45) == nil)
    }
}
