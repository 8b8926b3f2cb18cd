import Testing
import WebImageCore

@Suite("Image bitmaps and frames")
struct ImageBitmapTests {
    static func bitmap(_ pixels: [UInt8], width: Int, height: Int) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, _ in
            bytes.copyBytes(from: pixels)
        }
    }

    @Test("a filled bitmap keeps its pixels, packed")
    func fill() throws {
        let pixels: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let bitmap = try Self.bitmap(pixels, width: 2, height: 1)
        #expect(bitmap.packedBytes == pixels)
        #expect(bitmap.bytesPerRow == 8)
        #expect(bitmap.size == PixelSize(width: 2, height: 1))
    }

    @Test("equality compares pixels and ignores row padding")
    func equality() throws {
        let packed = try Self.bitmap([1, 2, 3, 4, 5, 6, 7, 8], width: 1, height: 2)
        let storage = try #require(PixelStorage(zeroedByteCount: 32))
        storage.withUnsafeMutableBytes { bytes in
            bytes.copyBytes(from: [1, 2, 3, 4])
            bytes[16] = 5
            bytes[17] = 6
            bytes[18] = 7
            bytes[19] = 8
        }
        let padded = ImageBitmap(width: 1, height: 2, pixelFormat: .rgba8, bytesPerRow: 16, storage: storage)
        #expect(packed == padded)
        #expect(try padded.copy().bytesPerRow == 4)
        #expect(try padded.copy() == packed)
        #expect(packed != (try Self.bitmap([1, 2, 3, 4, 5, 6, 7, 9], width: 1, height: 2)))
    }

    @Test("a bitmap too large for memory, or of negative size, is an error, not a trap")
    func impossibleSizes() {
        #expect(throws: ImageDecodingError.self) {
            _ = try ImageBitmap(width: Int.max / 2, height: 3, pixelFormat: .rgba8) { _, _ in }
        }
        do {
            _ = try ImageBitmap(width: -1, height: 3, pixelFormat: .gray8) { _, _ in }
            Issue.record("a negative width must throw")
        } catch {
            #expect(error.code == .invalidDimensions)
        }
    }

    @Test("browsers' rule for tiny frame delays")
    func playbackDuration() {
        #expect(ImageFrame.playbackDuration(forStoredDelay: .zero) == .milliseconds(100))
        #expect(ImageFrame.playbackDuration(forStoredDelay: .milliseconds(10)) == .milliseconds(100))
        #expect(ImageFrame.playbackDuration(forStoredDelay: .milliseconds(20)) == .milliseconds(20))
    }

    @Test("EXIF orientation values outside 1...8 read as up")
    func orientation() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 6) == .right)
        #expect(ImageOrientation.allCases.filter(\.swapsWidthAndHeight).map(\.rawValue) == [5, 6, 7, 8])
    }
}
