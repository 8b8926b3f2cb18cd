import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// Valid files made at test time, with one structure repeated.
enum ScalingFiles {
    static let photoSize = PixelSize(width: 64, height: 48)
    static let jpeg = try! JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
    static let progressiveGray = try! JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.grayPhoto(width: 64, height: 48))
    static let png = try! PNGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
    static let gif = try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 64, height: 48, frameCount: 1))

    /// A flat gray image of `mcus` 8x8 MCUs in one row band, a restart marker after each.
    static func restartMarkers(mcus: Int) -> Data {
        let width = 8 * min(mcus, 1000)
        let height = 8 * max(1, mcus / 1000)
        let bitmap = try! ImageBitmap(width: width, height: height, pixelFormat: .gray8) { pixels, _ in
            pixels.initializeMemory(as: UInt8.self, repeating: 128)
        }
        return try! JPEGFixtureEncoder(restartInterval: 1).encode(bitmap)
    }

    /// A PNG whose image data is about `bytes` long, cut into 1-byte IDAT chunks.
    static func oneByteIDAT(aboutBytes bytes: Int) -> (Data, PixelSize) {
        // The synthetic photo compresses to about 2.6 bytes a pixel.
        let side = max(8, Int((Double(bytes) / 2.6).squareRoot()))
        let png = try! PNGFixtureEncoder().encode(SyntheticImage.photo(width: side, height: side))
        return (RepeatedStructures.png(png, splittingImageDataInto: 1), PixelSize(width: side, height: side))
    }

    /// A GIF whose LZW data is about `bytes` long, in 1-byte sub-blocks.
    static func oneByteSubBlocks(aboutBytes bytes: Int) -> (Data, PixelSize) {
        // The synthetic animation compresses to about a quarter of a byte a pixel.
        let side = max(8, Int((Double(bytes) * 4).squareRoot()))
        let gif = try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: side, height: side, frameCount: 1))
        return (RepeatedStructures.gif(oneByteSubBlocks: gif), PixelSize(width: side, height: side))
    }
}

/// Each structure a hostile file can repeat, at about 1,000 and at 100,000 or more repeats
/// (200,000 for JPEG's empty APP1 segments, where libjpeg-turbo's own path is quadratic):
/// the large file decodes (or fails with the right error) and costs no more per byte than
/// ``ScalingProbe/allowedGrowth`` times the small one. A quadratic path fails it plainly:
/// libjpeg-turbo 2.1.5 saving 200,000 empty APP1 segments takes 61 s, and GIF partial
/// images that re-read the whole buffer in thin slices cost 47 times more per byte at
/// 60 KB than at 2 KB.
@Suite("Decoding work is linear in the input, whatever structure repeats")
struct LinearTimeTests {
    typealias Probe = ScalingProbe
    static let small = 1_000
    static let large = 200_000

    // MARK: JPEG

    @Test(
        "JPEG: a photo behind empty APPn and COM segments",
        arguments: [
            RepeatedStructures.JPEGSegment.emptyApp(1), .emptyApp(0), .emptyApp(2), .emptyApp(14), .emptyComment, .exif,
        ])
    func jpegSegments(_ segment: RepeatedStructures.JPEGSegment) {
        Probe.expectLinear(
            "\(segment)",
            small: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: segment, count: Self.small),
            large: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: segment, count: Self.large),
            decode: Probe.oneShot(JPEGDecoder()), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("JPEG: APP1 segments read incrementally in thin slices")
    func jpegSegmentsIncrementally() {
        Probe.expectLinear(
            "APP1, 7-byte slices",
            small: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: .emptyApp(1), count: Self.small),
            large: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: .emptyApp(1), count: 50_000),
            decode: Probe.incremental(JPEGDecoder(), slice: 7), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test(
        "JPEG: quantization and Huffman tables defined again and again",
        arguments: [
            RepeatedStructures.JPEGSegment.quantizationTables, .huffmanTables,
        ])
    func jpegTables(_ segment: RepeatedStructures.JPEGSegment) {
        Probe.expectLinear(
            "\(segment)",
            small: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: segment, count: Self.small),
            large: RepeatedStructures.jpeg(ScalingFiles.jpeg, repeating: segment, count: 100_000),
            decode: Probe.oneShot(JPEGDecoder()), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("JPEG: a restart marker after every MCU")
    func jpegRestartMarkers() {
        Probe.expectLinear(
            "restart markers",
            small: ScalingFiles.restartMarkers(mcus: Self.small), large: ScalingFiles.restartMarkers(mcus: 100_000),
            decode: Probe.oneShot(JPEGDecoder()), check: { #expect((try? $0.get()) != nil) }
        )
    }

    @Test("JPEG: scans up to the scan limit decode; past it the file is refused")
    func jpegScans() {
        let base = ScalingFiles.progressiveGray
        Probe.expectLinear(
            "scans to the limit",
            small: RepeatedStructures.jpeg(base, repeatingLastScan: 10),
            large: RepeatedStructures.jpeg(base, repeatingLastScan: 990),
            decode: Probe.oneShot(JPEGDecoder()), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
        Probe.expectLinear(
            "scans past the limit",
            small: RepeatedStructures.jpeg(base, repeatingLastScan: 1_000),
            large: RepeatedStructures.jpeg(base, repeatingLastScan: 100_000),
            decode: Probe.oneShot(JPEGDecoder()), check: Probe.fails(with: .corrupt)
        )
    }

    @Test("JPEG: partial images of a file of many empty scans are paid for by its bytes")
    func jpegPartialPassesPerByte() throws {
        // A flat image: its refinement scans are a few bytes each, its passes 256 KiB.
        let flat = try ImageBitmap(width: 512, height: 512, pixelFormat: .gray8) { pixels, _ in
            pixels.initializeMemory(as: UInt8.self, repeating: 90)
        }
        let file = RepeatedStructures.jpeg(try JPEGFixtureEncoder(progressive: true).encode(flat), repeatingLastScan: 900)
        let decoder = JPEGDecoder().makeIncrementalDecoder(options: .default)
        var offset = 0
        while offset < file.count {
            try decoder.append(file.subdata(in: offset..<min(file.count, offset + 16)))
            offset += 16
        }
        // One pass per 512 * 512 / 64 bytes of input at most, where a pass per scan
        // would be 900 and more.
        #expect(decoder.revision <= 1 + file.count * 64 / (512 * 512), "\(decoder.revision) passes for \(file.count) bytes")
        #expect(try decoder.finish().size == PixelSize(width: 512, height: 512))
    }

    // MARK: PNG

    @Test(
        "PNG: text, compressed text and unknown chunks before IDAT",
        arguments: [
            RepeatedStructures.PNGChunk.text, .compressedText, .unknown,
        ])
    func pngChunks(_ chunk: RepeatedStructures.PNGChunk) {
        Probe.expectLinear(
            "\(chunk)",
            small: RepeatedStructures.png(ScalingFiles.png, repeating: chunk, count: Self.small),
            large: RepeatedStructures.png(ScalingFiles.png, repeating: chunk, count: Self.large),
            decode: Probe.oneShot(PNGDecoder()), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("PNG: text chunks read incrementally in thin slices")
    func pngChunksIncrementally() {
        Probe.expectLinear(
            "tEXt, 7-byte slices",
            small: RepeatedStructures.png(ScalingFiles.png, repeating: .text, count: Self.small),
            large: RepeatedStructures.png(ScalingFiles.png, repeating: .text, count: 50_000),
            decode: Probe.incremental(PNGDecoder(), slice: 7), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("PNG: image data in 1-byte IDAT chunks")
    func pngOneByteIDAT() {
        let (small, smallSize) = ScalingFiles.oneByteIDAT(aboutBytes: Self.small)
        let (large, largeSize) = ScalingFiles.oneByteIDAT(aboutBytes: 130_000)
        #expect(large.count >= 100_000 * 13, "at least 100,000 IDAT chunks of 13 bytes")
        Probe.expectLinear(
            "1-byte IDAT", small: small, large: large,
            decode: Probe.oneShot(PNGDecoder()),
            check: { result in
                #expect((try? result.get())?.size == smallSize || (try? result.get())?.size == largeSize)
            }
        )
    }

    // MARK: GIF

    @Test(
        "GIF: comment, application and graphic control extensions before the image",
        arguments: [
            RepeatedStructures.GIFExtensionKind.comment, .application, .graphicControl,
        ])
    func gifExtensions(_ kind: RepeatedStructures.GIFExtensionKind) {
        Probe.expectLinear(
            "\(kind)",
            small: RepeatedStructures.gif(ScalingFiles.gif, repeating: kind, count: Self.small),
            large: RepeatedStructures.gif(ScalingFiles.gif, repeating: kind, count: 100_000),
            decode: Probe.oneShot(GIFDecoder()), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("GIF: comments read incrementally in thin slices")
    func gifExtensionsIncrementally() {
        Probe.expectLinear(
            "comments, 7-byte slices",
            small: RepeatedStructures.gif(ScalingFiles.gif, repeating: .comment, count: Self.small),
            large: RepeatedStructures.gif(ScalingFiles.gif, repeating: .comment, count: 50_000),
            decode: Probe.incremental(GIFDecoder(), slice: 7), check: Probe.decodes(to: ScalingFiles.photoSize)
        )
    }

    @Test("GIF: every sub-block one byte long, one-shot and incrementally")
    func gifOneByteSubBlocks() {
        let (small, _) = ScalingFiles.oneByteSubBlocks(aboutBytes: Self.small)
        let (large, largeSize) = ScalingFiles.oneByteSubBlocks(aboutBytes: 110_000)
        #expect(large.count >= 100_000 * 2, "at least 100,000 sub-blocks of 2 bytes")
        let check: (Result<DecodedImage, ImageDecodingError>) -> Void = { #expect((try? $0.get()) != nil) }
        Probe.expectLinear("1-byte sub-blocks", small: small, large: large, decode: Probe.oneShot(GIFDecoder()), check: check)
        Probe.expectLinear(
            "1-byte sub-blocks, 7-byte slices", small: small, large: large,
            decode: Probe.incremental(GIFDecoder(), slice: 7), check: check
        )
        #expect((try? GIFDecoder().decode(large))?.size == largeSize)
    }

    @Test("GIF: 1x1 frames up to the frame limit decode; past it the file is refused")
    func gifOnePixelFrames() {
        let limit = DecodeOptions.defaultMaxFrameCount
        Probe.expectLinear(
            "1x1 frames to the limit",
            small: RepeatedStructures.gif(onePixelFrames: Self.small),
            large: RepeatedStructures.gif(onePixelFrames: limit),
            decode: Probe.oneShot(GIFDecoder()),
            check: { result in
                let frames = (try? result.get())?.frames.count
                #expect(frames == Self.small || frames == limit)
            }
        )
        Probe.expectLinear(
            "1x1 frames past the limit",
            small: RepeatedStructures.gif(onePixelFrames: limit + 1),
            large: RepeatedStructures.gif(onePixelFrames: 100_000),
            decode: Probe.oneShot(GIFDecoder()), check: Probe.fails(with: .tooLarge)
        )
    }

    @Test("GIF: the frame limit is an option, checked one-shot and incrementally")
    func gifFrameLimit() throws {
        let file = RepeatedStructures.gif(onePixelFrames: 50)
        let options = DecodeOptions(maxFrameCount: 49)
        #expect(throws: ImageDecodingError.self) { try GIFDecoder().decode(file, options: options) }
        #expect(try GIFDecoder().decode(file, options: DecodeOptions(maxFrameCount: 50)).frames.count == 50)
        #expect(try GIFDecoder().decode(file, options: DecodeOptions(firstFrameOnly: true, maxFrameCount: 1)).frames.count == 1)
        let incremental = GIFDecoder().makeIncrementalDecoder(options: options)
        let refusal = Result { () throws(ImageDecodingError) in try incremental.append(file) }
        if case .failure(let error) = refusal {
            #expect(error.code == .tooLarge)
        } else {
            Issue.record("the incremental decoder took 50 frames over a limit of 49")
        }
    }
}
