import Foundation
import Testing
import WebImageCore
import WebImageFixtures

@Suite("JPEGFixtureEncoder writes files libjpeg accepts with the asked properties")
struct JPEGFixtureEncoderTests {
    /// Markers before the first SOS, with their payloads (independent of libjpeg).
    private func segments(_ jpeg: Data) -> [(marker: UInt8, payload: [UInt8])] {
        let bytes = [UInt8](jpeg)
        var result: [(UInt8, [UInt8])] = []
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            result.append((marker, Array(bytes[(i + 4)..<Swift.min(bytes.count, i + 2 + length)])))
            if marker == 0xDA { break }
            i += 2 + length
        }
        return result
    }

    private func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        zip(a, b).reduce(0.0) { $0 + Double(abs(Int($1.0) - Int($1.1))) } / Double(Swift.max(1, a.count))
    }

    /// The RGB samples of an RGBA bitmap.
    private func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        bitmap.packedBytes.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
    }

    @Test("chroma subsampling is written as asked", arguments: JPEGFixtureEncoder.Subsampling.allCases)
    func subsampling(_ subsampling: JPEGFixtureEncoder.Subsampling) throws {
        let photo = try SyntheticImage.photo(width: 50, height: 34, seed: 5)
        let info = try JPEGInspection(try JPEGFixtureEncoder(subsampling: subsampling).encode(photo))
        let expected: (Int, Int) =
            switch subsampling {
            case .s444: (1, 1)
            case .s422: (2, 1)
            case .s420: (2, 2)
            }
        #expect(info.width == 50 && info.height == 34 && info.components == 3)
        #expect(info.samplingFactors.map(\.horizontal) == [expected.0, 1, 1])
        #expect(info.samplingFactors.map(\.vertical) == [expected.1, 1, 1])
        #expect(info.scanlinesRead == 34 && info.warnings == 0)
    }

    @Test("progressive files use SOF2 and libjpeg reads them as progressive; baseline uses SOF0")
    func progressive() throws {
        let photo = try SyntheticImage.photo(width: 40, height: 40, seed: 6)
        let progressive = try JPEGFixtureEncoder(progressive: true).encode(photo)
        let baseline = try JPEGFixtureEncoder(progressive: false).encode(photo)
        #expect(segments(progressive).contains { $0.marker == 0xC2 })
        #expect(segments(baseline).contains { $0.marker == 0xC0 })
        #expect(try JPEGInspection(progressive).isProgressive)
        #expect(try !JPEGInspection(baseline).isProgressive)
        #expect(try JPEGInspection(progressive).scanlinesRead == 40)
    }

    @Test("an EXIF APP1 segment right after SOI carries the orientation", arguments: ImageOrientation.allCases)
    func exifOrientation(_ orientation: ImageOrientation) throws {
        let photo = try SyntheticImage.photo(width: 16, height: 8, seed: 7)
        let jpeg = try JPEGFixtureEncoder(exifOrientation: orientation).encode(photo)
        let first = try #require(segments(jpeg).first)
        #expect(first.marker == 0xE1)
        #expect(Array(first.payload.prefix(6)) == Array("Exif\0\0".utf8))
        // TIFF little-endian, IFD0 at 8, one entry: tag 0x0112, SHORT, value.
        let tiff = Array(first.payload.dropFirst(6))
        #expect(Array(tiff.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])
        #expect(Array(tiff[10..<12]) == [0x12, 0x01])
        #expect(Int(tiff[18]) | Int(tiff[19]) << 8 == Int(orientation.rawValue))
        #expect(try JPEGInspection(jpeg).hasEXIF)
        #expect(!segments(jpeg).contains { $0.marker == 0xE0 })
    }

    @Test("without an orientation the file has JFIF and no EXIF")
    func noExif() throws {
        let jpeg = try JPEGFixtureEncoder().encode(try SyntheticImage.photo(width: 16, height: 8, seed: 7))
        #expect(segments(jpeg).first?.marker == 0xE0)
        #expect(try !JPEGInspection(jpeg).hasEXIF)
    }

    @Test("gray bitmaps become one-component JPEGs close to the source")
    func gray() throws {
        let bitmap = try SyntheticImage.grayPhoto(width: 48, height: 32, seed: 8)
        let info = try JPEGInspection(try JPEGFixtureEncoder(quality: 95).encode(bitmap))
        #expect(info.components == 1)
        #expect(info.samples.count == 48 * 32)
        #expect(meanAbsoluteDifference(info.samples, bitmap.packedBytes) < 3)
    }

    @Test("colour at quality 95, 4:4:4 decodes close to the source")
    func colourFidelity() throws {
        let photo = try SyntheticImage.photo(width: 64, height: 48, seed: 9)
        let info = try JPEGInspection(try JPEGFixtureEncoder(quality: 95, subsampling: .s444).encode(photo))
        #expect(meanAbsoluteDifference(info.samples, rgb(photo)) < 3)
    }

    @Test("higher quality makes larger files")
    func qualityOrdering() throws {
        let photo = try SyntheticImage.photo(width: 64, height: 64, seed: 10)
        let sizes = try [30, 85, 98].map { try JPEGFixtureEncoder(quality: $0).encode(photo).count }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2])
    }

    @Test("a zero-sized image is a typed encodingFailed error from libjpeg, not a crash")
    func zeroSize() throws {
        let bitmap = try ImageBitmap(width: 0, height: 0, pixelFormat: .rgba8) { _, _ in }
        let error = #expect(throws: ImageDecodingError.self) { try JPEGFixtureEncoder().encode(bitmap) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.format == .jpeg)
        #expect(error?.message.isEmpty == false)
    }

    @Test("libjpeg read-back reports damaged data as an error, not a crash")
    func inspectionRejectsGarbage() {
        let error = #expect(throws: ImageDecodingError.self) { try JPEGInspection(Data([0xFF, 0xD8, 0xFF, 0x00, 0x12])) }
        #expect(error?.code == .corrupt)
    }
}
