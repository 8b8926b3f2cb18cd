import Foundation
import Testing
import WebImageCore
import WebImageFixtures

@testable import WebImageDecoding

/// The resampler's promises beyond exact small cases: what a thumbnail must keep.
@Suite("Resampling: area averaging from 2x, Catmull-Rom below")
struct ResamplingTests {
    static func gray(width: Int, height: Int, _ value: (Int, Int) -> UInt8) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .gray8) { bytes, stride in
            for y in 0..<height { for x in 0..<width { bytes[y * stride + x] = value(x, y) } }
        }
    }

    @Test(
        "the weights of every output sum to exactly one, and stay inside the source",
        arguments: [(400, 256), (97, 13), (5, 4), (3, 2), (1000, 999), (7, 1)])
    func weights(source: Int, target: Int) {
        let axis = ResampleWeights(source: source, target: target)
        for index in 0..<target {
            let row = axis.weights[(index * axis.taps)..<((index + 1) * axis.taps)]
            #expect(row.reduce(0) { $0 + Int($1) } == ResampleWeights.one)
            #expect(axis.starts[index] >= 0 && Int(axis.starts[index]) + axis.taps <= source)
        }
    }

    @Test("a one-pixel-wide line keeps its energy", arguments: [27, 20, 9])
    func lineEnergy(target: Int) throws {
        // On grey, so that Catmull-Rom's negative lobes beside the line are not clipped at 0.
        let source = try Self.gray(width: 40, height: 40) { x, _ in x == 17 ? 250 : 50 }
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: target, height: target))
        let scale = 40.0 / Double(target)
        let bytes = scaled.packedBytes
        for y in 0..<target {
            let energy = Double((0..<target).reduce(0) { $0 + Int(bytes[y * target + $1]) - 50 }) * scale
            #expect(abs(energy - 200) < 4 * scale, "row \(y): \(energy)")
        }
    }

    @Test("an opaque edge beside transparent pixels keeps its colour: no dark fringe", arguments: [20, 10, 7])
    func noDarkFringe(target: Int) throws {
        let source = try ImageBitmap(width: 30, height: 30, pixelFormat: .rgba8) { bytes, stride in
            // Opaque red, then transparent black.
            for y in 0..<30 {
                for x in 0..<30 {
                    let pixel: [UInt8] = x < 13 ? [255, 0, 0, 255] : [0, 0, 0, 0]
                    for c in 0..<4 { bytes[y * stride + x * 4 + c] = pixel[c] }
                }
            }
        }
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: target, height: target))
        let bytes = scaled.packedBytes
        var partlyCovered = 0
        for pixel in stride(from: 0, to: bytes.count, by: 4) where bytes[pixel + 3] > 0 {
            #expect(bytes[pixel] >= 254 && bytes[pixel + 1] <= 1 && bytes[pixel + 2] <= 1, "\(Array(bytes[pixel..<pixel + 4]))")
            if bytes[pixel + 3] < 255 { partlyCovered += 1 }
        }
        #expect(partlyCovered > 0, "the edge falls inside some output pixel")
    }

    @Test("single rows and columns scale along their length", arguments: [(1, 50, 1, 7), (50, 1, 7, 1), (1, 50, 1, 33), (50, 1, 33, 1)])
    func lines(width: Int, height: Int, targetWidth: Int, targetHeight: Int) throws {
        let source = try Self.gray(width: width, height: height) { x, y in UInt8((x + y) * 5) }
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: targetWidth, height: targetHeight))
        #expect(scaled.size == PixelSize(width: targetWidth, height: targetHeight))
        let values = scaled.packedBytes
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "a ramp stays a ramp: \(values)")
    }

    // Each size gives the horizontal kernel windows of another length: its four-tap,
    // two-tap and single-tap steps all run.
    @Test(
        "an opaque image gives the same pixels on the opaque path as on the premultiplied one, within one step",
        arguments: [(256, 192), (399, 299), (300, 225), (133, 100), (57, 43)])
    func opaquePath(width: Int, height: Int) throws {
        let source = try SyntheticImage.photo(width: 400, height: 300)
        let target = PixelSize(width: width, height: height)
        var results: [[UInt8]] = []
        for opaque in [true, false] {
            let sampler = try RowDownsampler(source: source.size, target: target, pixelFormat: .rgba8, opaque: opaque)
            source.withUnsafeBytes { bytes in
                for y in 0..<source.height { sampler.consume(row: bytes.baseAddress! + y * source.bytesPerRow) }
            }
            results.append(sampler.finish().packedBytes)
        }
        #expect(zip(results[0], results[1]).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(stride(from: 3, to: results[0].count, by: 4).allSatisfy { results[0][$0] == 255 })
        let whole = PixelRect(x: 0, y: 0, width: 400, height: 300)
        #expect(RowDownsampler.isOpaque(source, in: whole))
        let translucent = try SyntheticImage.translucent(width: 40, height: 30)
        #expect(!RowDownsampler.isOpaque(translucent, in: PixelRect(x: 0, y: 0, width: 40, height: 30)))
    }

    @Test(
        "a photo at odd scales matches a double-precision reference of the same filter within 45 dB",
        arguments: [(256, 192), (137, 101), (61, 47), (399, 299)])
    func photo(width: Int, height: Int) throws {
        let source = try SyntheticImage.photo(width: 400, height: 300)
        let ours = try RowDownsampler.downsample(source, to: PixelSize(width: width, height: height))
        let reference = ReferenceResampler.resize(source, width: width, height: height)
        let psnr = PixelComparison.psnr(ours.packedBytes, reference)
        #expect(psnr > 45, "\(psnr) dB")
    }

    // The premultiplied path's vector loop takes samples up to 65025 as signed 16-bit
    // values with their top bit flipped; a slip there is off by thousands, not by one.
    @Test(
        "a translucent image at odd scales matches a premultiplied double-precision reference",
        arguments: [(256, 192), (137, 101), (61, 47), (399, 299), (9, 7)])
    func translucent(width: Int, height: Int) throws {
        let source = try SyntheticImage.translucent(width: 400, height: 300)
        let ours = try RowDownsampler.downsample(source, to: PixelSize(width: width, height: height)).packedBytes
        let reference = ReferenceResampler.resize(source, width: width, height: height, premultiplied: true)
        // Alpha everywhere; colour where the pixel is not nearly transparent (dividing
        // by a small alpha magnifies the rounding of both).
        let alpha = stride(from: 3, to: ours.count, by: 4)
        #expect(PixelComparison.psnr(alpha.map { ours[$0] }, alpha.map { reference[$0] }) > 45)
        let colour = (0..<ours.count).filter { $0 % 4 != 3 && reference[$0 | 3] >= 64 }
        #expect(colour.count > width * height)
        let psnr = PixelComparison.psnr(colour.map { ours[$0] }, colour.map { reference[$0] })
        #expect(psnr > 40, "\(psnr) dB")
    }
}

/// The same filters in double precision, written independently of the fixed-point
/// code: RGBA horizontal then vertical, straight (an opaque image) or premultiplied by
/// alpha and divided back at the end.
enum ReferenceResampler {
    static func kernel(source: Int, target: Int, index: Int) -> [(Int, Double)] {
        let scale = Double(source) / Double(target)
        if scale == 1 { return [(index, 1)] }
        var taps: [(Int, Double)] = []
        if scale >= 2 {
            let from = Double(index) * scale
            let to = Double(index + 1) * scale
            for i in Int(from)..<min(source, Int(to.rounded(.up))) {
                let overlap = min(to, Double(i + 1)) - max(from, Double(i))
                if overlap > 0 { taps.append((i, overlap)) }
            }
        } else {
            let centre = (Double(index) + 0.5) * scale - 0.5
            for i in 0..<source {
                let t = abs(Double(i) - centre) / scale
                let w = t < 1 ? 1.5 * t * t * t - 2.5 * t * t + 1 : t < 2 ? -0.5 * t * t * t + 2.5 * t * t - 4 * t + 2 : 0
                if w != 0 { taps.append((i, w)) }
            }
        }
        let sum = taps.reduce(0) { $0 + $1.1 }
        return taps.map { ($0.0, $0.1 / sum) }
    }

    static func resize(_ bitmap: ImageBitmap, width: Int, height: Int, premultiplied: Bool = false) -> [UInt8] {
        let bytes = bitmap.packedBytes
        let source = (0..<bytes.count).map { i in
            premultiplied && i % 4 != 3 ? Double(bytes[i]) * Double(bytes[i | 3]) / 255 : Double(bytes[i])
        }
        var horizontal = [Double](repeating: 0, count: width * bitmap.height * 4)
        for x in 0..<width {
            let taps = kernel(source: bitmap.width, target: width, index: x)
            for y in 0..<bitmap.height {
                for c in 0..<4 {
                    horizontal[(y * width + x) * 4 + c] = taps.reduce(0) { $0 + $1.1 * source[(y * bitmap.width + $1.0) * 4 + c] }
                }
            }
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let taps = kernel(source: bitmap.height, target: height, index: y)
            for x in 0..<width {
                let sums = (0..<4).map { c in taps.reduce(0) { $0 + $1.1 * horizontal[($1.0 * width + x) * 4 + c] } }
                let alpha = max(0, min(255, sums[3]))
                for c in 0..<4 {
                    var value = sums[c]
                    if premultiplied && c != 3 { value = alpha > 0 ? value * 255 / alpha : 0 }
                    output[(y * width + x) * 4 + c] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
        return output
    }
}
