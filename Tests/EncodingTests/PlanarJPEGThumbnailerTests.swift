import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures
import WebImageTestSupport

/// The JPEG-to-JPEG thumbnail that stays in YCbCr: the size asked, as close to the
/// source as the RGBA path's output is, and `nil` (the RGBA path) for what it does not
/// take, whatever the bytes.
@Suite("PlanarJPEGThumbnailer")
struct PlanarJPEGThumbnailerTests {
    static func photo(
        _ subsampling: JPEGFixtureEncoder.Subsampling = .s420, progressive: Bool = false, width: Int = 1600, height: Int = 1200
    ) throws -> Data {
        try JPEGFixtureEncoder(quality: 85, subsampling: subsampling, progressive: progressive)
            .encode(try SyntheticImage.photo(width: width, height: height, seed: 24))
    }

    /// PSNR of a JPEG's decoded RGB against `reference` (RGBA of the same size).
    static func psnr(of jpeg: Data, against reference: ImageBitmap) throws -> Double {
        let decoded = try JPEGDecoder().decode(jpeg).bitmap
        #expect(decoded.size == reference.size)
        func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
            bitmap.packedBytes.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
        }
        return PixelComparison.psnr(rgb(decoded), rgb(reference))
    }

    /// The chroma sampling factors of a JPEG's start-of-frame, one pair a component.
    static func samplingFactors(_ jpeg: Data) -> [UInt8]? {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 {
                return (0..<Int(bytes[index + 9])).map { bytes[index + 10 + $0 * 3 + 1] }
            }
            index += 2 + length
        }
        return nil
    }

    @Test(
        "a 4:2:0, 4:2:2 or 4:4:4 photo becomes a baseline 4:2:0 JPEG of the target size, as close to the full-size picture as the RGBA path's",
        arguments: JPEGFixtureEncoder.Subsampling.allCases)
    func matchesTheRGBAPath(_ subsampling: JPEGFixtureEncoder.Subsampling) throws {
        let source = try Self.photo(subsampling)
        let target = PixelSize(width: 300, height: 225)
        // The picture both paths aim at: the full-size decode, resampled.
        let full = try JPEGDecoder().decode(source)
        let truth = try ResizeTransformer(width: target.width, height: target.height, mode: .stretch).transform(full).bitmap
        // What the RGBA path encodes: the decoder's DCT-scaled, resampled pixels.
        let decoded = try JPEGDecoder().decode(source, options: DecodeOptions(maxPixelSize: 300)).bitmap
        try #require(decoded.size == target && truth.size == target)
        let planar = try #require(PlanarJPEGThumbnailer(quality: 80).thumbnail(of: source, size: target))
        #expect(Self.samplingFactors(planar) == [0x22, 0x11, 0x11], "baseline 4:2:0")
        let viaRGBA = try JPEGEncoder(quality: 80).encode(decoded)
        let planarPSNR = try Self.psnr(of: planar, against: truth)
        let rgbaPSNR = try Self.psnr(of: viaRGBA, against: truth)
        #expect(planarPSNR >= rgbaPSNR - 0.5, "planar \(planarPSNR) dB, RGBA \(rgbaPSNR) dB")
        #expect(planarPSNR >= 30)
    }

    @Test("odd sizes, the DCT scale's own size, the full size, one pixel and a progressive source all come out whole")
    func oddAndExactSizes() throws {
        let baseline = try Self.photo()
        let progressive = try Self.photo(progressive: true)
        let odd = try Self.photo(.s422, width: 1001, height: 757)
        for (source, size) in [
            (baseline, PixelSize(width: 301, height: 227)), (baseline, PixelSize(width: 400, height: 300)),
            (baseline, PixelSize(width: 1600, height: 1200)), (baseline, PixelSize(width: 1, height: 1)),
            (baseline, PixelSize(width: 299, height: 1)), (progressive, PixelSize(width: 257, height: 193)),
            (odd, PixelSize(width: 333, height: 251)), (odd, PixelSize(width: 1001, height: 757)),
        ] {
            let planar = try #require(PlanarJPEGThumbnailer(quality: 75).thumbnail(of: source, size: size), "\(size)")
            let decoded = try JPEGDecoder().decode(planar).bitmap
            #expect(decoded.size == size)
            if size.width > 8, size.height > 8 {
                let reference = try JPEGDecoder().decode(source, options: DecodeOptions(maxPixelSize: max(size.width, size.height)))
                    .bitmap
                if reference.size == size { #expect(try Self.psnr(of: planar, against: reference) >= 30, "\(size)") }
            }
        }
    }

    @Test("outputs of a pixel or two keep the picture's colour, as the RGBA path's do")
    func tinyOutputsKeepTheColour() throws {
        let source = try Self.photo()
        for size in [PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 1), PixelSize(width: 1, height: 3)] {
            let planar = try JPEGDecoder().decode(try #require(PlanarJPEGThumbnailer(quality: 90).thumbnail(of: source, size: size)))
                .bitmap
            let viaRGBA = try JPEGDecoder().decode(
                try JPEGEncoder(quality: 90).encode(
                    try ResizeTransformer(width: size.width, height: size.height, mode: .stretch).transform(
                        try JPEGDecoder().decode(source, options: DecodeOptions(maxPixelSize: 200))
                    ).bitmap)
            ).bitmap
            let (a, b) = (planar.packedBytes, viaRGBA.packedBytes)
            try #require(a.count == b.count)
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 12, "\(size): samples differ by up to \(worst)")
        }
    }

    @Test("quality is clamped to 1...100 and a higher quality gives a larger file")
    func quality() throws {
        let source = try Self.photo()
        let size = PixelSize(width: 300, height: 225)
        let sizes = try [-5, 1, 50, 100, 300].map {
            try #require(PlanarJPEGThumbnailer(quality: $0).thumbnail(of: source, size: size)).count
        }
        #expect(sizes[0] == sizes[1] && sizes[3] == sizes[4])
        #expect(sizes[1] < sizes[2] && sizes[2] < sizes[3])
    }

    @Test("a gray JPEG gives nil")
    func grayGivesNil() throws {
        let gray = try JPEGFixtureEncoder().encode(
            try ImageBitmap(width: 64, height: 48, pixelFormat: .gray8) { bytes, _ in
                for index in bytes.indices { bytes[index] = UInt8(index % 251) }
            })
        #expect(PlanarJPEGThumbnailer().thumbnail(of: gray, size: PixelSize(width: 32, height: 24)) == nil)
    }

    @Test("a CMYK JPEG gives nil", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
    func cmykGivesNil() throws {
        let cmyk = try Corpus.data("jpeg/pillow/pil_sample_cmyk.jpg")
        try #require(try JPEGDecoder().decode(cmyk).size == PixelSize(width: 100, height: 100))
        #expect(PlanarJPEGThumbnailer().thumbnail(of: cmyk, size: PixelSize(width: 50, height: 50)) == nil)
        // The RGB file of the same picture does take the path.
        let rgb = try Corpus.data("jpeg/pillow/pil_sample_rgb.jpg")
        #expect(PlanarJPEGThumbnailer().thumbnail(of: rgb, size: PixelSize(width: 50, height: 50)) != nil)
    }

    @Test("truncated, damaged, empty and non-JPEG bytes give nil without a crash")
    func brokenBytesGiveNil() throws {
        let target = PixelSize(width: 32, height: 24)
        let thumbnailer = PlanarJPEGThumbnailer(quality: 80)
        for photo in [try Self.photo(), try Self.photo(progressive: true)] {
            for fraction in [0.02, 0.5, 0.98] {
                let cut = photo.prefix(Int(Double(photo.count) * fraction))
                #expect(thumbnailer.thumbnail(of: cut, size: target) == nil, "cut to \(fraction)")
            }
            var damaged = photo
            for offset in stride(from: photo.count / 3, to: photo.count / 3 + 4000, by: 7) { damaged[offset] ^= 0x5A }
            // libjpeg-turbo may or may not notice flipped bits in entropy-coded data;
            // either way the answer is whole or nil.
            if let output = thumbnailer.thumbnail(of: damaged, size: target) {
                #expect(try JPEGDecoder().decode(output).size == target)
            }
            var badMarker = photo
            badMarker[2] = 0x00  // the first segment's marker is no marker
            #expect(thumbnailer.thumbnail(of: badMarker, size: target) == nil)
        }
        #expect(thumbnailer.thumbnail(of: Data("not a jpeg".utf8), size: target) == nil)
        #expect(thumbnailer.thumbnail(of: Data(), size: target) == nil)
        #expect(thumbnailer.thumbnail(of: try PNGEncoder().encode(try SyntheticImage.photo(width: 64, height: 48)), size: target) == nil)
    }

    @Test("a target larger than the source, over 65,535 a side or empty, and a source over the pixel limit, give nil")
    func sizesOutOfRangeGiveNil() throws {
        let source = try Self.photo(width: 320, height: 240)
        let thumbnailer = PlanarJPEGThumbnailer()
        for size in [
            PixelSize(width: 321, height: 240), PixelSize(width: 320, height: 241), PixelSize(width: 65_536, height: 10),
            PixelSize(width: 10, height: 1_000_000), PixelSize(width: Int.max, height: Int.max), PixelSize(width: 0, height: 10),
            PixelSize(width: 10, height: -1),
        ] {
            #expect(thumbnailer.thumbnail(of: source, size: size) == nil, "\(size)")
        }
        let limited = PlanarJPEGThumbnailer(maxPixelCount: 320 * 240 - 1)
        #expect(limited.thumbnail(of: source, size: PixelSize(width: 32, height: 24)) == nil)
        #expect(PlanarJPEGThumbnailer(maxPixelCount: 320 * 240).thumbnail(of: source, size: PixelSize(width: 32, height: 24)) != nil)
    }

    @Test("calls on several threads at once give the same bytes as one call")
    func concurrentCallsAgree() async throws {
        let source = try Self.photo(width: 640, height: 480)
        let size = PixelSize(width: 201, height: 151)
        let thumbnailer = PlanarJPEGThumbnailer(quality: 80)
        let expected = try #require(thumbnailer.thumbnail(of: source, size: size))
        let outputs = await withTaskGroup(of: Data?.self) { group in
            for _ in 0..<8 { group.addTask { thumbnailer.thumbnail(of: source, size: size) } }
            return await group.reduce(into: [Data?]()) { $0.append($1) }
        }
        #expect(outputs.allSatisfy { $0 == expected })
    }

    @Test(
        "every JPEG of the corpus, valid or broken, comes out at the size asked or gives nil",
        .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
    func corpus() throws {
        var planar = 0
        for entry in Corpus.manifest where entry.format == "jpeg" {
            let data = try Corpus.data(entry.file)
            guard let width = entry.width, let height = entry.height, width > 0, height > 0 else {
                _ = PlanarJPEGThumbnailer().thumbnail(of: data, size: PixelSize(width: 8, height: 8))  // no crash
                continue
            }
            let size = PixelSize(width: width, height: height)
            let scale = min(1, 64 / Double(max(size.width, size.height)))
            let target = PixelSize(width: max(1, Int(Double(size.width) * scale)), height: max(1, Int(Double(size.height) * scale)))
            guard let output = PlanarJPEGThumbnailer(quality: 80).thumbnail(of: data, size: target) else { continue }
            planar += 1
            #expect(try JPEGDecoder().decode(output).bitmap.size == target, "\(entry.file)")
        }
        #expect(planar >= 20, "only \(planar) corpus JPEGs took the planar path")
    }
}
