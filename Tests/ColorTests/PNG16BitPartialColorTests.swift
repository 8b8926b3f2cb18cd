import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

@Suite("16-bit PNG loaded progressively: partial images converted from the 16-bit passes")
struct PNG16BitPartialColorTests {
    static let width = PNG16BitColorTests.width
    static let height = PNG16BitColorTests.height
    static let samples = PNG16BitColorTests.samples

    /// The block each known pixel stands for after `passes` complete Adam7 passes.
    static func block(afterPasses passes: Int) -> (width: Int, height: Int) {
        [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)][passes - 1]
    }

    /// The colours a preview after `passes` shows: each pixel its block's known pixel's.
    static func preview(_ colours: [UInt8], afterPasses passes: Int) -> [UInt8] {
        let (blockWidth, blockHeight) = block(afterPasses: passes)
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let known = ((y - y % blockHeight) * width + x - x % blockWidth) * 3
                out += colours[known..<(known + 3)]
            }
        }
        return out
    }

    @Test("every partial image of an interlaced file is within one level of LittleCMS on its 16-bit samples")
    func interlacedPartials() throws {
        let profile = try APNG16BitColorTests.profile()
        let file = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: true, profile: profile)
        let fromWide = PNG16BitColorTests.rounded(ColorReference.toSRGB(samples: Self.samples, from: profile))
        let fromHighBytes = PNG16BitColorTests.rounded(ColorReference.toSRGB(Self.samples.map { UInt8($0 >> 8) }, from: profile))
        let decoder = PNG16BitColorTests.registry.makeIncrementalDecoder()
        var checkedPasses: [Int] = []
        var reducingFirstIsOff = false
        for start in stride(from: 0, to: file.count, by: 256) {
            try decoder.append(file[start..<min(file.count, start + 256)])
            let passes = decoder.revision
            guard (1...6).contains(passes), checkedPasses.last != passes else { continue }
            let partial = try #require(try decoder.partialImage())
            #expect(partial.isPartial && partial.colorProfile == nil && partial.sourceColorProfile == profile)
            let shown = PNG16BitColorTests.colourBytes(partial.bitmap.packedBytes)
            #expect(PNG16BitColorTests.largestDifference(shown, Self.preview(fromWide, afterPasses: passes)) <= 1, "after \(passes) passes")
            let fromReduced = Self.preview(fromHighBytes, afterPasses: passes)
            if PNG16BitColorTests.largestDifference(fromReduced, Self.preview(fromWide, afterPasses: passes)) >= 2 {
                reducingFirstIsOff = true
            }
            checkedPasses.append(passes)
        }
        #expect(checkedPasses == Array(1...6))
        #expect(reducingFirstIsOff, "the fixture is one where the order matters")
        let final = try decoder.finish()
        let whole = try PNG16BitColorTests.registry.decode(file)
        #expect(final.colorProfile == nil && final.bitmap.packedBytes == whole.bitmap.packedBytes)
    }

    @Test("a plain file's partial images show its rows so far as the whole decode converts them")
    func plainPartials() throws {
        let profile = try APNG16BitColorTests.profile()
        let file = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: false, profile: profile)
        let whole = try PNG16BitColorTests.registry.decode(file).bitmap.packedBytes
        let decoder = PNG16BitColorTests.registry.makeIncrementalDecoder()
        try decoder.append(file.prefix(file.count / 2))
        let partial = try #require(try decoder.partialImage())
        let rows = decoder.revision
        #expect(rows > 0 && rows < Self.height && partial.colorProfile == nil)
        let rowBytes = Self.width * 4
        #expect(Array(partial.bitmap.packedBytes.prefix(rows * rowBytes)) == Array(whole.prefix(rows * rowBytes)))
        try decoder.append(file.dropFirst(file.count / 2))
        #expect(try decoder.finish().bitmap.packedBytes == whole)
    }
}
