import Testing
import WebImageCore

@testable import WebImageDecoding

@Suite("Turning pixels upright")
struct OrientationTransformTests {
    /// Stored 3x2:  1 2 3
    ///              4 5 6
    static let stored: [UInt8] = [1, 2, 3, 4, 5, 6]

    @Test(
        "each EXIF orientation shows the stored pixels as the EXIF specification draws them",
        arguments: [
            (ImageOrientation.up, 3, [1, 2, 3, 4, 5, 6]),
            (.upMirrored, 3, [3, 2, 1, 6, 5, 4]),
            (.down, 3, [6, 5, 4, 3, 2, 1]),
            (.downMirrored, 3, [4, 5, 6, 1, 2, 3]),
            (.leftMirrored, 2, [1, 4, 2, 5, 3, 6]),
            (.right, 2, [4, 1, 5, 2, 6, 3]),
            (.rightMirrored, 2, [6, 3, 5, 2, 4, 1]),
            (.left, 2, [3, 6, 2, 5, 1, 4]),
        ] as [(ImageOrientation, Int, [UInt8])])
    func orientations(orientation: ImageOrientation, width: Int, expected: [UInt8]) throws {
        let bitmap = try ImageBitmap(width: 3, height: 2, pixelFormat: .gray8) { bytes, _ in bytes.copyBytes(from: Self.stored) }
        let upright = try OrientationTransform.apply(orientation, to: bitmap)
        #expect(upright.width == width)
        #expect(upright.height == 6 / width)
        #expect(upright.packedBytes == expected)
    }

    @Test("RGBA pixels move whole")
    func wholePixels() throws {
        let bitmap = try ImageBitmap(width: 2, height: 1, pixelFormat: .rgba8) { bytes, _ in
            bytes.copyBytes(from: [1, 2, 3, 4, 5, 6, 7, 8])
        }
        #expect(try OrientationTransform.apply(.upMirrored, to: bitmap).packedBytes == [5, 6, 7, 8, 1, 2, 3, 4])
    }
}
