import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures
import WebImageTestSupport

/// The JPEG-to-JPEG thumbnail as a transcoder: the file decoding with the options and
/// encoding with the JPEG encoder would give, or `nil` for whatever that path would not
/// make exactly.
@Suite("JPEGThumbnailTranscoder")
struct JPEGThumbnailTranscoderTests {
    static let photo = try! JPEGFixtureEncoder(quality: 90).encode(SyntheticImage.photo(width: 640, height: 480, seed: 3))
    static let thumbnail = DecodeOptions(maxPixelSize: 160, appliesOrientation: true)
    static let displayP3 = try! ColorProfile.stated(
        white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), transfer: .sRGB,
        origin: "Display P3")

    @Test("a JPEG at a thumbnail size: a baseline JPEG of the options' target size, close to the decode-and-encode path")
    func takesAJPEGThumbnail() throws {
        let made = try #require(JPEGThumbnailTranscoder().transcode(Self.photo, options: Self.thumbnail, encoder: JPEGEncoder(quality: 85)))
        #expect(made.format == .jpeg)
        #expect(made.size == PixelSize(width: 160, height: 120))
        let decoded = try JPEGDecoder().decode(made.data)
        #expect(decoded.size == made.size)
        let reference = try JPEGDecoder().decode(Self.photo, options: Self.thumbnail)
        let psnr = PixelComparison.psnr(Self.rgb(decoded.bitmap), Self.rgb(reference.bitmap))
        #expect(psnr >= 30, "\(psnr) dB against the decode at the same size")
    }

    @Test("the encoder's quality is the output's: a lower quality makes a smaller file")
    func followsQuality() throws {
        let transcoder = JPEGThumbnailTranscoder()
        let high = try #require(transcoder.transcode(Self.photo, options: Self.thumbnail, encoder: JPEGEncoder(quality: 95)))
        let low = try #require(transcoder.transcode(Self.photo, options: Self.thumbnail, encoder: JPEGEncoder(quality: 30)))
        #expect(low.data.count < high.data.count)
    }

    @Test(
        "declines an encoder it cannot stand for: another format, 4:4:4, progressive, a profile to write",
        arguments: [
            PNGEncoder() as any ImageEncoding, JPEGEncoder(subsampling: .s444), JPEGEncoder(progressive: true),
            JPEGEncoder(colorProfile: JPEGThumbnailTranscoderTests.displayP3),
        ])
    func declinesEncoders(encoder: any ImageEncoding) {
        #expect(JPEGThumbnailTranscoder().transcode(Self.photo, options: Self.thumbnail, encoder: encoder) == nil)
    }

    @Test("declines a source that is not a JPEG, or not a whole one")
    func declinesOtherSources() throws {
        let png = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
        let transcoder = JPEGThumbnailTranscoder()
        #expect(transcoder.transcode(png, options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
        #expect(transcoder.transcode(Self.photo.prefix(200), options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
        #expect(transcoder.transcode(DamagedImages.jpegHeaderThenNoise(Self.photo), options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
        #expect(transcoder.transcode(Data(), options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
    }

    @Test("a turned JPEG is declined when the orientation is applied, and taken as stored when it is not")
    func orientation() throws {
        let turned = try JPEGFixtureEncoder(quality: 90, exifOrientation: .right).encode(SyntheticImage.photo(width: 320, height: 240))
        let transcoder = JPEGThumbnailTranscoder()
        #expect(transcoder.transcode(turned, options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
        var asStored = Self.thumbnail
        asStored.appliesOrientation = false
        let made = try #require(transcoder.transcode(turned, options: asStored, encoder: JPEGEncoder()))
        #expect(made.size == PixelSize(width: 160, height: 120))
    }

    @Test("a JPEG tagged Display P3 is declined when it is to be converted, and taken when its colours are kept")
    func colour() throws {
        let tagged = try JPEGEncoder(quality: 90, colorProfile: Self.displayP3).encode(SyntheticImage.photo(width: 320, height: 240))
        let transcoder = JPEGThumbnailTranscoder()
        #expect(transcoder.transcode(tagged, options: Self.thumbnail, encoder: JPEGEncoder()) == nil)
        var converted = Self.thumbnail
        converted.color = .convert(to: Self.displayP3)
        #expect(transcoder.transcode(tagged, options: converted, encoder: JPEGEncoder()) == nil)
        var kept = Self.thumbnail
        kept.color = .preserve
        #expect(transcoder.transcode(tagged, options: kept, encoder: JPEGEncoder()) != nil)
    }

    @Test("a source over the options' pixel limit is declined")
    func pixelLimit() {
        var options = Self.thumbnail
        options.maxPixelCount = 640 * 480 - 1
        #expect(JPEGThumbnailTranscoder().transcode(Self.photo, options: options, encoder: JPEGEncoder()) == nil)
    }

    static func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        bitmap.packedBytes.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
    }
}
