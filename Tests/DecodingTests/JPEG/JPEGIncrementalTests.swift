import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Bytes fed in random slices give partial images while they arrive, and the same
/// final image as a whole-file decode.
@Suite("JPEG incremental decoding", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGIncrementalTests {
    let decoder = JPEGDecoder()

    @Test(
        "a baseline file shows the rows so far, grey below, then the full image",
        arguments: [("jpeg/libjpeg-turbo/testorig.jpg", 200), ("jpeg/exif-orientation/Landscape_1.jpg", 8192)])
    func baseline(_ file: String, maxSlice: Int) throws {
        let data = try Corpus.data(file)
        let oneShot = try decoder.decode(data)
        let incremental = decoder.makeIncrementalDecoder(options: .default)
        let (partials, final) = try feedInSlices(data, to: incremental, maxSlice: maxSlice, seed: 1)
        #expect(partials.count >= 2)
        for partial in partials {
            #expect(partial.isPartial)
            #expect(partial.size == oneShot.size)
        }
        // The first partial image ends in mid-grey rows not yet received.
        let first = try #require(partials.first).bitmap
        let lastRow = Array(first.packedBytes.suffix(first.packedRowBytes))
        #expect(lastRow.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : $0.element == 128 })
        #expect(!final.isPartial)
        #expect(final.bitmap == oneShot.bitmap)
        #expect(incremental.info?.size == oneShot.size)
        #expect(incremental.info?.isProgressive == false)
    }

    @Test("junk between SOI and the first marker is refused one-shot and incrementally, whatever the slices")
    func junkAfterSOI() throws {
        // libjpeg itself would skip the junk and decode the rest.
        let original = try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg")
        let data = Data([0xFF, 0xD8, 0x00, 0x42, 0x13]) + original.dropFirst(2)
        let whole = #expect(throws: ImageDecodingError.self) { try decoder.decode(data) }
        #expect(whole?.code == .invalidHeader)
        for sliceSize in [1, 2, 3, 4096] {
            let incremental = decoder.makeIncrementalDecoder(options: .default)
            var refusal: ImageDecodingError?
            var start = 0
            while refusal == nil, start < data.count {
                let end = min(start + sliceSize, data.count)
                do { try incremental.append(data.subdata(in: start..<end)) } catch { refusal = error }
                start = end
            }
            #expect(refusal?.code == .invalidHeader, "slices of \(sliceSize)")
        }
    }

    @Test(
        "a progressive file gives a full-size partial image per scan, coarse first",
        arguments: ["jpeg/libjpeg-turbo/testimgp.jpg", "jpeg/libjpeg-turbo/testprog.jpg"])
    func progressive(_ file: String) throws {
        let data = try Corpus.data(file)
        let oneShot = try decoder.decode(data)
        let incremental = decoder.makeIncrementalDecoder(options: .default)
        let (partials, final) = try feedInSlices(data, to: incremental, maxSlice: 300, seed: 2, maxPartials: 1000)
        #expect(partials.count > 1)
        #expect(partials.allSatisfy { $0.size == oneShot.size && $0.isPartial })
        let first = try #require(partials.first)
        #expect(first.bitmap != oneShot.bitmap)
        #expect(meanAbsoluteDifference(first.bitmap, oneShot.bitmap) < 30)
        #expect(final.bitmap == oneShot.bitmap)
        #expect(incremental.info?.isProgressive == true)
    }

    @Test("the revision only grows, and info appears once the header has arrived")
    func revisionAndInfo() throws {
        let data = try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg")
        let incremental = decoder.makeIncrementalDecoder(options: .default)
        try incremental.append(data.prefix(20))
        #expect(incremental.info == nil)
        #expect(try incremental.partialImage() == nil)
        var last = incremental.revision
        var offset = 20
        while offset < data.count {
            let end = min(data.count, offset + 97)
            try incremental.append(data.subdata(in: offset..<end))
            offset = end
            #expect(incremental.revision >= last)
            last = incremental.revision
        }
        #expect(incremental.info == ImageInfo(format: .jpeg, size: PixelSize(width: 227, height: 149)))
        #expect(last > 0)
        _ = try incremental.finish()
    }

    @Test(
        "options apply to the incremental result as to the one-shot decode",
        arguments: [
            ("jpeg/exif-orientation/Landscape_6.jpg", DecodeOptions(maxPixelSize: 300, appliesOrientation: true)),
            ("jpeg/pillow/pil_sample_cmyk.jpg", DecodeOptions(pixelFormat: .gray8)),
            ("jpeg/libjpeg-turbo/testimgp.jpg", DecodeOptions(maxPixelSize: 100)),
            ("jpeg/libjpeg-turbo/testimgari.jpg", DecodeOptions.default),
        ])
    func optionsMatchOneShot(_ file: String, _ options: DecodeOptions) throws {
        let data = try Corpus.data(file)
        let oneShot = try decoder.decode(data, options: options)
        let incremental = decoder.makeIncrementalDecoder(options: options)
        let (partials, final) = try feedInSlices(data, to: incremental, maxSlice: 4096, seed: 3)
        #expect(final.bitmap == oneShot.bitmap)
        #expect(final.orientation == oneShot.orientation)
        #expect(partials.allSatisfy { $0.size == oneShot.size })
    }

    @Test(
        "data that stops early shows a partial image, then finish() throws .truncated",
        arguments: ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/libjpeg-turbo/testimgp.jpg"])
    func truncatedStream(_ file: String) throws {
        let data = try Corpus.data(file)
        let incremental = decoder.makeIncrementalDecoder(options: .default)
        try incremental.append(data.prefix(data.count * 2 / 3))
        let partial = try #require(try incremental.partialImage())
        #expect(partial.size == PixelSize(width: 227, height: 149))
        let error = #expect(throws: ImageDecodingError.self) { try incremental.finish() }
        #expect(error?.code == .truncated)
        let after = #expect(throws: ImageDecodingError.self) { try incremental.append(Data([0])) }
        #expect(after?.code == .invalidState)
    }

    @Test("after an error or finish, every call is .invalidState")
    func invalidStateAfterEnd() throws {
        let png = try Corpus.data("jpeg/derived/png_content_named.jpg")
        let broken = decoder.makeIncrementalDecoder(options: .default)
        let first = #expect(throws: ImageDecodingError.self) { try broken.append(png) }
        #expect(first?.code == .invalidHeader)
        let second = #expect(throws: ImageDecodingError.self) { try broken.append(png) }
        #expect(second?.code == .invalidState)

        let good = decoder.makeIncrementalDecoder(options: .default)
        try good.append(try Corpus.data("jpeg/libjpeg-turbo/testorig.jpg"))
        _ = try good.finish()
        let again = #expect(throws: ImageDecodingError.self) { try good.finish() }
        #expect(again?.code == .invalidState)
    }

    @Test("finishing with no bytes is .empty")
    func emptyStream() {
        let incremental = decoder.makeIncrementalDecoder(options: .default)
        let error = #expect(throws: ImageDecodingError.self) { try incremental.finish() }
        #expect(error?.code == .empty)
    }
}
