import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

/// Bad input gives a specific, typed error, quickly, and never a crash.
@Suite("JPEG errors and limits", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGErrorTests {
    let decoder = JPEGDecoder()

    static let expectedCodes: [(String, ImageDecodingError.Code)] = [
        ("jpeg/derived/empty.jpg", .empty),
        ("jpeg/derived/png_content_named.jpg", .invalidHeader),
        ("jpeg/derived/soi_only.jpg", .truncated),
        ("jpeg/derived/testorig_sof_width0.jpg", .invalidDimensions),
        ("jpeg/derived/testorig_sof_height0.jpg", .invalidDimensions),
        ("jpeg/derived/testorig_sof_65500x65500.jpg", .tooLarge),
        ("jpeg/libjpeg-turbo/monkey12.jpg", .unsupported),
        ("jpeg/libjpeg-turbo/testorig12.jpg", .unsupported),
        ("jpeg/libjpeg-turbo/testimgl.jpg", .unsupported),
        ("jpeg/derived/testorig_trunc_half.jpg", .truncated),
        ("jpeg/derived/testorig_headers_only.jpg", .truncated),
        ("jpeg/derived/testimgp_trunc_half.jpg", .truncated),
        ("jpeg/derived/testimgp_trunc_after_first_scan.jpg", .truncated),
    ]

    @Test("each broken corpus file fails with its own code", arguments: expectedCodes)
    func brokenFileCode(_ file: String, _ code: ImageDecodingError.Code) throws {
        let data = try Corpus.data(file)
        let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(data) }
        #expect(error?.code == code, "\(file): \(String(describing: error))")
        #expect(error?.format == .jpeg)
        #expect(error?.message.isEmpty == false)
    }

    @Test("a 65500x65500 header is refused from the header, without decoding")
    func hugeHeaderIsRefusedFast() throws {
        let data = try Corpus.data("jpeg/derived/testorig_sof_65500x65500.jpg")
        let start = ContinuousClock.now
        #expect(throws: ImageDecodingError.self) { try decoder.decode(data) }
        #expect(ContinuousClock.now - start < .seconds(2), "far less than a decode at that size; generous for a loaded machine")
    }

    @Test("a missing EOI after complete scan data still gives every pixel")
    func missingEOIIsAccepted() throws {
        let complete = try decoder.decode(try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg"))
        let noEOI = try decoder.decode(try Corpus.data("jpeg/derived/testorig_no_eoi.jpg"))
        #expect(noEOI.bitmap == complete.bitmap)
    }

    @Test(
        "cutting a baseline or progressive file anywhere in its scans is .truncated",
        arguments: ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/libjpeg-turbo/testimgp.jpg", "jpeg/libjpeg-turbo/testprog.jpg"])
    func cutFilesAreTruncated(_ file: String) throws {
        let data = try Corpus.data(file)
        for fraction in [0.2, 0.4, 0.6, 0.8, 0.95] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(cut) }
            #expect(error?.code == .truncated, "\(file) cut at \(fraction): \(String(describing: error))")
        }
    }

    @Test("over maxPixelCount is .tooLarge, checked against the decoded size")
    func pixelLimit() throws {
        let data = try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg")  // 227x149
        let error = #expect(throws: ImageDecodingError.self) {
            try decoder.decode(data, options: DecodeOptions(maxPixelCount: 227 * 149 - 1))
        }
        #expect(error?.code == .tooLarge)
        let exact = try decoder.decode(data, options: DecodeOptions(maxPixelCount: 227 * 149))
        #expect(exact.size == PixelSize(width: 227, height: 149))
    }

    @Test("a progressive file counts its full-size coefficients against the limit")
    func progressiveCoefficientsCount() throws {
        // Asked for at 40 px, both decode at 1/4 scale (57x38), but libjpeg holds a
        // progressive file's coefficients at full size.
        let options = DecodeOptions(maxPixelSize: 40, maxPixelCount: 5_000)
        let baseline = try decoder.decode(try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg"), options: options)
        #expect(baseline.size == PixelSize(width: 40, height: 26))
        let error = #expect(throws: ImageDecodingError.self) {
            try decoder.decode(try Corpus.data("jpeg/libjpeg-turbo/testimgp.jpg"), options: options)
        }
        #expect(error?.code == .tooLarge)
    }

    @Test(
        "randomly damaged files decode or throw, never crash",
        arguments: [
            "jpeg/libjpeg-turbo/testorig.jpg", "jpeg/libjpeg-turbo/testimgp.jpg", "jpeg/pillow/pil_sample_cmyk.jpg",
        ])
    func damagedFilesNeverCrash(_ file: String) throws {
        let original = [UInt8](try Corpus.data(file))
        var generator = SeededGenerator(seed: 0x5EED)
        var decoded = 0
        var failed = 0
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let image = try decoder.decode(Data(bytes))
                #expect(image.width > 0 && image.height > 0)
                decoded += 1
            } catch {
                #expect(!error.message.isEmpty)
                failed += 1
            }
        }
        #expect(decoded + failed == 150)
    }
}
