import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageDecoding

/// The segment walk the memory estimate reads a JPEG's frame with, against libjpeg's own
/// reading of the same header.
@Suite("JPEG header scan: the estimate's frame header without libjpeg")
struct JPEGHeaderScanTests {
    struct Reading: Equatable, CustomStringConvertible {
        var size: PixelSize
        var isCMYK: Bool
        var isProgressive: Bool
        var hasMultipleScans: Bool

        init(_ header: JPEGHeader) {
            size = header.size
            isCMYK = header.colorModel == .cmyk
            isProgressive = header.isProgressive
            hasMultipleScans = header.hasMultipleScans
        }

        var description: String { "\(size) cmyk \(isCMYK) progressive \(isProgressive) multi-scan \(hasMultipleScans)" }
    }

    static func scanned(_ data: Data) -> Reading? {
        data.withUnsafeBytes { JPEGDecoder.scannedHeader($0) }.map(Reading.init)
    }

    static func libjpeg(_ data: Data) -> Reading? {
        data.withUnsafeBytes { JPEGDecoder.libjpegHeader($0) }.map(Reading.init)
    }

    static let generated: [(String, Data)] = [
        ("baseline 4:2:0", try! JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))),
        ("progressive", try! JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.photo(width: 33, height: 17))),
        ("progressive gray", try! JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.grayPhoto(width: 64, height: 48))),
    ]

    @Test("generated files read the same as through libjpeg", arguments: generated.indices)
    func generatedFiles(_ index: Int) throws {
        let (name, data) = Self.generated[index]
        let expected = try #require(Self.libjpeg(data), "\(name)")
        #expect(Self.scanned(data) == expected, "\(name)")
    }

    @Test(
        "every corpus JPEG whose header libjpeg reads reads the same by the walk",
        .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
    func corpusFiles() throws {
        var compared = 0
        for entry in JPEGTestData.entries {
            let data = try Corpus.data(entry.file)
            guard let expected = Self.libjpeg(data) else { continue }
            // The walk may decline a file libjpeg reads past (bytes between segments):
            // the estimate then asks libjpeg. When it answers, it agrees.
            if let scanned = Self.scanned(data) {
                #expect(scanned == expected, "\(entry.file)")
                compared += 1
            }
        }
        #expect(compared >= 20, "only \(compared) corpus files compared")
    }

    @Test("200,000 empty APP1 segments before the frame are walked past, in step with libjpeg")
    func manySegments() throws {
        let photo = Self.generated[0].1
        let hostile = RepeatedStructures.jpeg(photo, repeating: .emptyApp(1), count: 200_000)
        #expect(Self.scanned(hostile) == Self.libjpeg(photo))
    }

    @Test("no answer for what libjpeg would not get past")
    func declines() {
        let photo = [UInt8](Self.generated[0].1)
        let sos = try! #require((0..<(photo.count - 1)).first { photo[$0] == 0xFF && photo[$0 + 1] == 0xDA })
        let startOfScan: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0]
        let cases: [(String, [UInt8])] = [
            ("not a JPEG", Array("GIF89a".utf8) + [0, 0, 0, 0]),
            ("truncated before the first scan", Array(photo[..<sos])),
            ("a segment running off the end", [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 0x00]),
            ("the end before a frame", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("a scan before the frame", [0xFF, 0xD8] + startOfScan),
            ("a frame of height 0", [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, 0, 0, 0, 16, 1, 1, 0x11, 0] + startOfScan),
        ]
        for (name, bytes) in cases {
            #expect(Self.scanned(Data(bytes)) == nil, "\(name)")
        }
    }

    @Test("the estimate is the same whichever reading it uses")
    func estimateAgrees() throws {
        for (name, data) in Self.generated {
            let header = try #require(data.withUnsafeBytes { JPEGDecoder.libjpegHeader($0) })
            for options in [DecodeOptions.default, DecodeOptions(maxPixelSize: 16)] {
                let plan = try JPEGScalePlan(header: header, options: options)
                let bytesPerPixel = plan.wantsGray ? 1 : 4
                let decoded = JPEGScalePlan.scaled(header.size, eighths: plan.scaleEighths)
                var expected = decoded.pixelCount * bytesPerPixel
                if plan.targetSize != decoded { expected += plan.targetSize.pixelCount * bytesPerPixel }
                if header.hasMultipleScans { expected += header.size.pixelCount * 6 }
                #expect(JPEGDecoder().estimatedMemory(decoding: data, options: options) == expected, "\(name)")
            }
        }
    }
}
