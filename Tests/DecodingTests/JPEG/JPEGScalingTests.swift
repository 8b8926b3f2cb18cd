import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageDecoding

/// Downsampling in the DCT domain, then exactly; gray output.
@Suite("JPEG downsampling and pixel formats", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGScalingTests {
    let decoder = JPEGDecoder()

    @Test("Landscape_1 at 300 px is 300x200 and close to downsampling the full decode")
    func downsampledMatchesFullDecode() throws {
        let data = try Corpus.data("jpeg/exif-orientation/Landscape_1.jpg")
        let small = try decoder.decode(data, options: DecodeOptions(maxPixelSize: 300))
        #expect(small.size == PixelSize(width: 300, height: 200))
        #expect(small.sourceSize == PixelSize(width: 1800, height: 1200))
        let full = try decoder.decode(data)
        let reference = try RowDownsampler.downsample(full.bitmap, to: PixelSize(width: 300, height: 200))
        let difference = meanAbsoluteDifference(small.bitmap, reference)
        #expect(difference < 3, "mean absolute difference \(difference)")
    }

    @Test("the full-size image is never allocated: the limit applies to the DCT-scaled decode")
    func limitAppliesToScaledDecode() throws {
        let data = try Corpus.data("jpeg/exif-orientation/Landscape_1.jpg")  // 1800x1200, baseline
        // 300 px needs 2/8 scale: 450x300 = 135000 pixels.
        let fits = try decoder.decode(data, options: DecodeOptions(maxPixelSize: 300, maxPixelCount: 135_000))
        #expect(fits.size == PixelSize(width: 300, height: 200))
        let error = #expect(throws: ImageDecodingError.self) {
            try decoder.decode(data, options: DecodeOptions(maxPixelSize: 300, maxPixelCount: 134_999))
        }
        #expect(error?.code == .tooLarge)
    }

    @Test(
        "the scale is the smallest M/8 that still covers the target",
        arguments: [
            (4000, 3000, 500, 1), (4000, 3000, 501, 2), (1800, 1200, 300, 2), (1800, 1200, 225, 1),
            (1800, 1200, 1000, 5), (227, 149, 226, 8), (227, 149, 227, 8), (4, 4, 4, 8), (4, 4, 3, 5),
        ])
    func scaleChoice(width: Int, height: Int, maxPixelSize: Int, eighths: Int) throws {
        let header = JPEGHeader(
            size: PixelSize(width: width, height: height), colorModel: .yCbCr, isProgressive: false, hasMultipleScans: false)
        let plan = try JPEGScalePlan(header: header, options: DecodeOptions(maxPixelSize: maxPixelSize))
        #expect(plan.scaleEighths == eighths)
        let scaled = JPEGScalePlan.scaled(header.size, eighths: plan.scaleEighths)
        #expect(scaled.width >= plan.targetSize.width && scaled.height >= plan.targetSize.height)
    }

    @Test("an exact 1/8 target decodes straight at that scale", arguments: [1, 2, 4, 8])
    func exactScales(_ eighths: Int) throws {
        let data = try Corpus.data("jpeg/exif-orientation/Landscape_1.jpg")
        let side = 1800 * eighths / 8
        let image = try decoder.decode(data, options: DecodeOptions(maxPixelSize: side))
        #expect(image.size == PixelSize(width: side, height: 1200 * eighths / 8))
    }

    @Test("gray8 from a gray JPEG is exactly the gray channel of the RGBA decode")
    func grayFromGray() throws {
        let data = try Corpus.data("jpeg/libjpeg-turbo/testimggray.jpg")
        let gray = try decoder.decode(data, options: DecodeOptions(pixelFormat: .gray8))
        let rgba = try decoder.decode(data)
        #expect(gray.bitmap.pixelFormat == .gray8)
        #expect(gray.bitmap.packedBytes == stride(from: 0, to: rgba.bitmap.packedBytes.count, by: 4).map { rgba.bitmap.packedBytes[$0] })
    }

    @Test(
        "gray8 from colour (YCbCr, RGB, CMYK) is close to the luminance of the RGBA decode",
        arguments: [
            "jpeg/libjpeg-turbo/testorig.jpg", "jpeg/pillow/rgb.jpg", "jpeg/pillow/pil_sample_cmyk.jpg",
        ])
    func grayFromColour(_ file: String) throws {
        let data = try Corpus.data(file)
        let gray = try decoder.decode(data, options: DecodeOptions(pixelFormat: .gray8))
        let luminance = try GrayConversion.gray(from: try decoder.decode(data).bitmap)
        #expect(gray.bitmap.pixelFormat == .gray8)
        let difference = meanAbsoluteDifference(gray.bitmap, luminance)
        #expect(difference < 0.5, "\(file): \(difference)")
    }

    @Test("downsampling, gray and orientation combine: Portrait_6 at 120 px, gray, upright")
    func combinedOptions() throws {
        let data = try Corpus.data("jpeg/exif-orientation/Portrait_6.jpg")  // stored 1800x1200, shown 1200x1800
        let image = try decoder.decode(data, options: DecodeOptions(maxPixelSize: 120, pixelFormat: .gray8, appliesOrientation: true))
        #expect(image.size == PixelSize(width: 80, height: 120))
        #expect(image.bitmap.pixelFormat == .gray8)
        #expect(image.orientation == .up)
    }
}
