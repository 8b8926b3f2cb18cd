import Testing
import WebImageCore

@testable import WebImageDecoding

@Suite("Downsampler: exact small cases")
struct RowDownsamplerTests {
    static func gray(_ values: [UInt8], width: Int) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: values.count / width, pixelFormat: .gray8) { bytes, _ in bytes.copyBytes(from: values) }
    }

    @Test("halving averages each 2x2 block")
    func halving() throws {
        let source = try Self.gray(
            [
                0, 100, 10, 10,
                200, 100, 30, 50,
                255, 255, 0, 0,
                255, 255, 0, 4,
            ], width: 4)
        let half = try RowDownsampler.downsample(source, to: PixelSize(width: 2, height: 2))
        #expect(half.packedBytes == [100, 25, 255, 1])
    }

    @Test("from 2x, a non-integer ratio weights the source pixels by the area they share")
    func fractionalCoverage() throws {
        // 5 -> 2 columns: output 0 covers source [0, 2.5): s0 + s1 + 0.5 x s2, over 2.5.
        let source = try Self.gray([0, 50, 100, 150, 200], width: 5)
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: 2, height: 1))
        #expect(scaled.packedBytes == [40, 160])
    }

    @Test("below 2x, Catmull-Rom: a ramp stays the ramp at the output pixels' centres")
    func catmullRomRamp() throws {
        // 12 -> 8 columns: output x is centred on source (x + 0.5) * 1.5 - 0.5. A
        // symmetric filter whose weights sum to one keeps a linear ramp exactly where
        // its window is not clipped by the edges (outputs 2 to 5).
        let source = try Self.gray((0..<12).map { UInt8($0 * 20) }, width: 12)
        let values = try RowDownsampler.downsample(source, to: PixelSize(width: 8, height: 1)).packedBytes.map(Int.init)
        for x in 2...5 {
            let expected = ((Double(x) + 0.5) * 1.5 - 0.5) * 20
            #expect(abs(Double(values[x]) - expected) <= 1, "\(values)")
        }
    }

    @Test("a flat image stays flat at any size", arguments: [(97, 13), (50, 50), (1, 1), (99, 1)])
    func flat(width: Int, height: Int) throws {
        let source = try ImageBitmap(width: 99, height: 51, pixelFormat: .rgba8) { bytes, _ in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = 12
                bytes[i + 1] = 34
                bytes[i + 2] = 56
                bytes[i + 3] = 200
            }
        }
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: width, height: height))
        #expect(scaled.size == PixelSize(width: width, height: height))
        #expect(
            Set(stride(from: 0, to: scaled.packedBytes.count, by: 4).map { Array(scaled.packedBytes[$0..<$0 + 4]) }) == [[12, 34, 56, 200]])
    }

    @Test(
        "gray rows scale as each colour of the same grey in opaque RGBA (two separate vector loops)",
        arguments: [(400, 256), (401, 129), (1000, 123), (37, 29), (17, 16), (9, 8), (16, 3), (5, 2)])
    func grayMatchesOpaqueColour(sourceWidth: Int, targetWidth: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let values = (0..<(sourceWidth * 5)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let gray = try Self.gray(values, width: sourceWidth)
        let rgba = try ImageBitmap(width: sourceWidth, height: 5, pixelFormat: .rgba8) { bytes, _ in
            for (index, value) in values.enumerated() {
                for channel in 0..<3 { bytes[index * 4 + channel] = value }
                bytes[index * 4 + 3] = 255
            }
        }
        let target = PixelSize(width: targetWidth, height: 3)
        let fromGray = try RowDownsampler.downsample(gray, to: target).packedBytes
        let fromColour = try RowDownsampler.downsample(rgba, to: target).packedBytes
        #expect(fromGray.count == targetWidth * 3)
        for channel in 0..<3 {
            let colour = stride(from: channel, to: fromColour.count, by: 4).map { fromColour[$0] }
            #expect(colour == fromGray, "channel \(channel)")
        }
    }

    @Test("transparent pixels do not darken their neighbours")
    func alphaWeighting() throws {
        // A red opaque pixel beside a transparent black one.
        let source = try ImageBitmap(width: 2, height: 1, pixelFormat: .rgba8) { bytes, _ in
            bytes.copyBytes(from: [255, 0, 0, 255, 0, 0, 0, 0])
        }
        let scaled = try RowDownsampler.downsample(source, to: PixelSize(width: 1, height: 1))
        // Half covered: alpha 127.5, rounded either way; the colour stays red.
        #expect(scaled.packedBytes == [255, 0, 0, 127] || scaled.packedBytes == [255, 0, 0, 128], "\(scaled.packedBytes)")
    }

    @Test("rows fed one at a time give the same result as a whole bitmap")
    func streaming() throws {
        var values: [UInt8] = []
        for i in 0..<(40 * 30) { values.append(UInt8(truncatingIfNeeded: i * 7)) }
        let source = try Self.gray(values, width: 40)
        let sampler = try RowDownsampler(source: source.size, target: PixelSize(width: 13, height: 7), pixelFormat: .gray8)
        values.withUnsafeBytes { bytes in
            for y in 0..<30 { sampler.consume(row: bytes.baseAddress! + y * 40) }
        }
        #expect(sampler.finish() == (try RowDownsampler.downsample(source, to: PixelSize(width: 13, height: 7))))
    }

    @Test(
        "a partial image: rows never fed count as zero, so output rows wholly below the last row fed are zero",
        arguments: [(PixelFormat.gray8, false), (.rgba8, true), (.rgba8, false)])
    func partial(format: PixelFormat, opaque: Bool) throws {
        // 40 rows of one grey to 10 (area averaging, four rows each); only 22 rows come.
        let width = 33
        let bytes = [UInt8](repeating: 200, count: width * 40 * format.bytesPerPixel)
        let sampler = try RowDownsampler(
            source: PixelSize(width: width, height: 40), target: PixelSize(width: 11, height: 10), pixelFormat: format, opaque: opaque)
        bytes.withUnsafeBytes { raw in
            for y in 0..<22 { sampler.consume(row: raw.baseAddress! + y * width * format.bytesPerPixel) }
        }
        let result = sampler.finish()
        let rowBytes = 11 * format.bytesPerPixel
        let rows = (0..<10).map { Array(result.packedBytes[($0 * rowBytes)..<(($0 + 1) * rowBytes)]) }
        // Samples that carry the grey: every one for gray, colour and alpha for
        // premultiplied RGBA (alpha 200 too), colour alone for opaque RGBA.
        func grey(_ row: [UInt8]) -> [UInt8] {
            format == .gray8 ? row : opaque ? row.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) : row
        }
        for y in 0..<5 { #expect(grey(rows[y]).allSatisfy { $0 == 200 }, "row \(y)") }
        // Row 5 covers source rows 20-23, of which two came: half of its grey, or, with
        // alpha, its colour at half the coverage.
        if format == .rgba8 && !opaque {
            #expect(rows[5].enumerated().allSatisfy { $0.element == ($0.offset % 4 == 3 ? 100 : 200) }, "row 5: \(rows[5])")
        } else {
            #expect(grey(rows[5]).allSatisfy { $0 == 100 }, "row 5: \(rows[5])")
        }
        for y in 6..<10 { #expect(grey(rows[y]).allSatisfy { $0 == 0 }, "row \(y)") }
        if opaque { #expect(rows.allSatisfy { row in stride(from: 3, to: row.count, by: 4).allSatisfy { row[$0] == 255 } }) }
    }
}
