import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// EXIF orientation is read from APP1, exposed, and applied only when asked.
@Suite("JPEG EXIF orientation", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGOrientationTests {
    let decoder = JPEGDecoder()

    static let oriented = JPEGTestData.entries.filter { $0.exifOrientation != nil && $0.expected == .valid }

    @Test("the orientation matches the manifest's EXIF value; pixels stay as stored", arguments: oriented)
    func exposed(_ entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        let image = try decoder.decode(data)
        let expected = ImageOrientation(exifValue: try #require(entry.exifOrientation))
        #expect(image.orientation == expected)
        #expect(image.width == entry.width && image.height == entry.height)

        let incremental = decoder.makeIncrementalDecoder(options: .default)
        try incremental.append(data)
        #expect(incremental.info?.orientation == expected)
    }

    @Test("appliesOrientation turns the pixels upright and swaps the size for 5 to 8", arguments: oriented)
    func applied(_ entry: CorpusEntry) throws {
        let image = try decoder.decode(try Corpus.data(entry.file), options: DecodeOptions(appliesOrientation: true))
        let orientation = ImageOrientation(exifValue: try #require(entry.exifOrientation))
        #expect(image.orientation == .up)
        let (w, h) = (try #require(entry.width), try #require(entry.height))
        let expected = orientation.swapsWidthAndHeight ? PixelSize(width: h, height: w) : PixelSize(width: w, height: h)
        #expect(image.size == expected)
        #expect(image.sourceSize == PixelSize(width: w, height: h))
    }

    @Test(
        "every Landscape_N and Portrait_N, turned upright, shows the same picture as _1",
        arguments: ["Landscape", "Portrait"])
    func uprightImagesAgree(_ set: String) throws {
        let options = DecodeOptions(maxPixelSize: 240, appliesOrientation: true)
        let reference = try decoder.decode(try Corpus.data("jpeg/exif-orientation/\(set)_1.jpg"), options: options)
        for n in 2...8 {
            let image = try decoder.decode(try Corpus.data("jpeg/exif-orientation/\(set)_\(n).jpg"), options: options)
            #expect(image.size == reference.size, "\(set)_\(n)")
            guard image.size == reference.size else { continue }
            let difference = meanAbsoluteDifference(image.bitmap, reference.bitmap)
            #expect(difference < 2, "\(set)_\(n) differs by \(difference)")
        }
    }
}
