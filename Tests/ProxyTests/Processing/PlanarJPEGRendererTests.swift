import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageProxy

/// The JPEG-to-JPEG path that stays in YCbCr: the right size, as close to the source as
/// the RGBA path's output is, and a `nil` (the RGBA path) for what it does not take.
@Suite("Proxy: the planar JPEG path")
struct PlanarJPEGRendererTests {
    static func photo(_ subsampling: JPEGFixtureEncoder.Subsampling = .s420, progressive: Bool = false) throws -> Data {
        try JPEGFixtureEncoder(quality: 85, subsampling: subsampling, progressive: progressive)
            .encode(try SyntheticImage.photo(width: 1600, height: 1200, seed: 24))
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

    @Test(
        "a photo of each chroma subsampling becomes a JPEG of the target size, as close to the full-size picture as the RGBA path's",
        arguments: JPEGFixtureEncoder.Subsampling.allCases)
    func closeToTheRGBAPath(_ subsampling: JPEGFixtureEncoder.Subsampling) throws {
        let source = try Self.photo(subsampling)
        let target = PixelSize(width: 300, height: 225)
        // The picture both paths aim at: the full-size decode, resampled.
        let full = try JPEGDecoder().decode(source)
        let truth = try ResizeTransformer(width: target.width, height: target.height, mode: .stretch).transform(full).bitmap
        // What the RGBA path encodes: the decoder's DCT-scaled, resampled pixels.
        let decoded = try JPEGDecoder().decode(source, options: DecodeOptions(maxPixelSize: 300)).bitmap
        try #require(decoded.size == target && truth.size == target)
        let planar = try #require(PlanarJPEGRenderer.render(source, to: target, quality: 80))
        let viaRGBA = try JPEGEncoder(quality: 80).encode(decoded)
        let planarPSNR = try Self.psnr(of: planar, against: truth)
        let rgbaPSNR = try Self.psnr(of: viaRGBA, against: truth)
        #expect(planarPSNR >= rgbaPSNR - 0.5, "planar \(planarPSNR) dB, RGBA \(rgbaPSNR) dB")
        #expect(planarPSNR >= 30)
    }

    @Test("odd sizes, the DCT scale's own size, the full size and a progressive source all come out whole")
    func sizes() throws {
        let baseline = try Self.photo()
        let progressive = try Self.photo(progressive: true)
        for (source, size) in [
            (baseline, PixelSize(width: 301, height: 227)), (baseline, PixelSize(width: 400, height: 300)),
            (baseline, PixelSize(width: 1600, height: 1200)), (baseline, PixelSize(width: 1, height: 1)),
            (progressive, PixelSize(width: 257, height: 193)),
        ] {
            let planar = try #require(PlanarJPEGRenderer.render(source, to: size, quality: 75), "\(size)")
            let decoded = try JPEGDecoder().decode(planar).bitmap
            #expect(decoded.size == size)
            if size.width > 8 {
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
            let planar = try JPEGDecoder().decode(try #require(PlanarJPEGRenderer.render(source, to: size, quality: 90))).bitmap
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

    @Test("gray JPEGs, truncated or damaged files and bytes that are no JPEG go to the RGBA path")
    func declines() throws {
        let gray = try JPEGFixtureEncoder().encode(
            try ImageBitmap(width: 64, height: 48, pixelFormat: .gray8) { bytes, _ in
                for index in bytes.indices { bytes[index] = UInt8(index % 251) }
            })
        let target = PixelSize(width: 32, height: 24)
        #expect(PlanarJPEGRenderer.render(gray, to: target, quality: 80) == nil)
        let photo = try Self.photo()
        #expect(PlanarJPEGRenderer.render(photo.prefix(photo.count / 2), to: target, quality: 80) == nil, "truncated")
        var damaged = photo
        for offset in stride(from: photo.count / 3, to: photo.count / 3 + 4000, by: 7) { damaged[offset] ^= 0x5A }
        _ = PlanarJPEGRenderer.render(damaged, to: target, quality: 80)  // either way, no crash
        #expect(PlanarJPEGRenderer.render(Data("not a jpeg".utf8), to: target, quality: 80) == nil)
        #expect(PlanarJPEGRenderer.render(Data(), to: target, quality: 80) == nil)
    }

    @Test("every JPEG of the corpus, valid or broken, renders at the size asked or goes to the RGBA path")
    func corpus() throws {
        guard Corpus.isAvailable else {
            print("skipped: \(Corpus.missingMessage)")
            return
        }
        var planar = 0
        for entry in Corpus.manifest where entry.format == "jpeg" {
            let data = try Corpus.data(entry.file)
            guard let width = entry.width, let height = entry.height, width > 0, height > 0 else {
                _ = PlanarJPEGRenderer.render(data, to: PixelSize(width: 8, height: 8), quality: 80)  // no crash
                continue
            }
            let size = PixelSize(width: width, height: height)
            let scale = min(1, 64 / Double(max(size.width, size.height)))
            let target = PixelSize(
                width: max(1, Int(Double(size.width) * scale)), height: max(1, Int(Double(size.height) * scale)))
            guard let output = PlanarJPEGRenderer.render(data, to: target, quality: 80) else { continue }
            planar += 1
            #expect(try JPEGDecoder().decode(output).bitmap.size == target, "\(entry.file)")
        }
        #expect(planar >= 20, "only \(planar) corpus JPEGs took the planar path")
    }
}
