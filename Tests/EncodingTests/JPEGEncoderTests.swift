import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

/// JPEG written by TurboJPEG and read back by the library's decoder.
@Suite("JPEGEncoder")
struct JPEGEncoderTests {
    /// The start-of-frame segment: its marker and, per component, the sampling factors.
    private func startOfFrame(_ jpeg: Data) -> (marker: UInt8, components: [UInt8])? {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker) {
                let count = Int(bytes[index + 9])
                return (marker, (0..<count).map { bytes[index + 10 + $0 * 3 + 1] })
            }
            index += 2 + length
        }
        return nil
    }

    @Test("a photo round-trips close to its pixels, at the size given")
    func roundTrip() throws {
        let photo = try SyntheticImage.photo(width: 320, height: 240)
        let jpeg = try JPEGEncoder(quality: 92).encode(photo)
        let decoded = try JPEGDecoder().decode(jpeg)
        #expect(decoded.size == photo.size)
        let difference = zip(decoded.bitmap.packedBytes, photo.packedBytes).enumerated()
            .filter { $0.offset % 4 != 3 }.reduce(0) { $0 + abs(Int($1.element.0) - Int($1.element.1)) }
        #expect(Double(difference) / Double(photo.width * photo.height * 3) < 4)
    }

    @Test("subsampling, progressive and gray are written as asked")
    func settings() throws {
        let photo = try SyntheticImage.photo(width: 64, height: 48)
        let baseline420 = try #require(startOfFrame(try JPEGEncoder(subsampling: .s420).encode(photo)))
        #expect(baseline420.marker == 0xC0)
        #expect(baseline420.components == [0x22, 0x11, 0x11])
        let progressive444 = try #require(startOfFrame(try JPEGEncoder(subsampling: .s444, progressive: true).encode(photo)))
        #expect(progressive444.marker == 0xC2)
        #expect(progressive444.components == [0x11, 0x11, 0x11])
        let gray = try SyntheticImage.grayPhoto(width: 64, height: 48)
        let grayFrame = try #require(startOfFrame(try JPEGEncoder().encode(gray)))
        #expect(grayFrame.components.count == 1)
    }

    @Test("higher quality makes a larger file")
    func quality() throws {
        let photo = try SyntheticImage.photo(width: 200, height: 150)
        #expect(try JPEGEncoder(quality: 50).encode(photo).count < (try JPEGEncoder(quality: 95).encode(photo)).count)
    }

    @Test("an empty bitmap is an encoding error")
    func empty() throws {
        let empty = try ImageBitmap(width: 0, height: 5, pixelFormat: .rgba8) { _, _ in }
        let error = #expect(throws: ImageDecodingError.self) { try JPEGEncoder().encode(empty) }
        #expect(error?.code == .encodingFailed)
    }
}
