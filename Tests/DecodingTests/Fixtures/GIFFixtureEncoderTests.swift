import Foundation
import Testing
import WebImageCore
import WebImageFixtures

@Suite("GIFFixtureEncoder writes files giflib's DGifSlurp reads back as asked")
struct GIFFixtureEncoderTests {
    /// A simple RGB palette of `count` distinct colours.
    private func palette(_ count: Int, offset: Int = 0) -> [UInt8] {
        (0..<count).flatMap { i in
            [UInt8(truncatingIfNeeded: i * 40 + offset), UInt8(truncatingIfNeeded: 255 - i * 30), UInt8(truncatingIfNeeded: i * 7)]
        }
    }

    private func pattern(_ width: Int, _ height: Int, colours: Int) -> [UInt8] {
        (0..<(width * height)).map { UInt8(($0 / 3 + $0 % width) % colours) }
    }

    @Test("an animation keeps its frame count, loop count, delays, palette and pixels")
    func animation() throws {
        let animation = try SyntheticAnimation.make(width: 48, height: 36, frameCount: 5, delayCentiseconds: 7, loopCount: 3, seed: 11)
        let gif = try GIFFixtureEncoder().encode(animation)
        #expect(gif.starts(with: Array("GIF89a".utf8)))
        let read = try GiflibReadback(gif)
        #expect(read.width == 48 && read.height == 36)
        #expect(read.frames.count == 5)
        #expect(read.loopCount == 3)
        #expect(read.globalPalette == SyntheticAnimation.palette)
        for (frame, expected) in zip(read.frames, animation.frames) {
            #expect(frame.indices == expected.indices)
            #expect(frame.delayCentiseconds == 7)
            #expect(frame.localPalette == nil)
        }
        // A panning camera: consecutive frames differ.
        #expect(read.frames[0].indices != read.frames[1].indices)
    }

    @Test("loop count 0 (forever) is written, and nil writes no NETSCAPE2.0 extension")
    func loopCounts() throws {
        let frame = GIFFixtureFrame(indices: pattern(4, 4, colours: 2), width: 4, height: 4)
        let forever = GIFFixtureAnimation(width: 4, height: 4, globalPalette: palette(2), loopCount: 0, frames: [frame, frame])
        let none = GIFFixtureAnimation(width: 4, height: 4, globalPalette: palette(2), loopCount: nil, frames: [frame, frame])
        #expect(try GiflibReadback(try GIFFixtureEncoder().encode(forever)).loopCount == 0)
        #expect(try GiflibReadback(try GIFFixtureEncoder().encode(none)).loopCount == nil)
    }

    @Test("frame rectangles, local tables, disposal, transparency and interlacing are stored per frame")
    func perFrameProperties() throws {
        let frames = [
            GIFFixtureFrame(indices: pattern(20, 17, colours: 4), width: 20, height: 17, delayCentiseconds: 0, disposal: .none),
            GIFFixtureFrame(
                indices: pattern(9, 13, colours: 8), x: 3, y: 2, width: 9, height: 13,
                localPalette: palette(8, offset: 9), delayCentiseconds: 25, disposal: .background, transparentIndex: 5
            ),
            GIFFixtureFrame(
                indices: pattern(11, 15, colours: 4), x: 6, y: 1, width: 11, height: 15,
                delayCentiseconds: 1, disposal: .previous, transparentIndex: 0, interlaced: true
            ),
            GIFFixtureFrame(indices: pattern(20, 17, colours: 4), width: 20, height: 17, writesGraphicControl: false),
        ]
        let animation = GIFFixtureAnimation(width: 20, height: 17, globalPalette: palette(4), loopCount: 0, frames: frames)
        let read = try GiflibReadback(try GIFFixtureEncoder().encode(animation))
        try #require(read.frames.count == 4)
        for (frame, expected) in zip(read.frames, frames) {
            #expect(
                [frame.left, frame.top, frame.width, frame.height] as [Int] == [expected.x, expected.y, expected.width, expected.height])
            #expect(frame.indices == expected.indices)
            #expect(frame.interlaced == expected.interlaced)
        }
        #expect(read.frames[0].disposal == 1 && read.frames[0].delayCentiseconds == 0 && read.frames[0].transparentIndex == -1)
        #expect(read.frames[1].disposal == 2 && read.frames[1].delayCentiseconds == 25 && read.frames[1].transparentIndex == 5)
        #expect(read.frames[1].localPalette == palette(8, offset: 9))
        #expect(read.frames[2].disposal == 3 && read.frames[2].transparentIndex == 0)
        #expect(read.frames[2].localPalette == nil)
        #expect(read.frames[3].disposal == nil)
    }

    @Test("palettes are padded with black to a power of two")
    func palettePadding() throws {
        let animation = GIFFixtureAnimation(
            width: 3, height: 1, globalPalette: palette(3), loopCount: nil,
            frames: [GIFFixtureFrame(indices: [0, 1, 2], width: 3, height: 1)]
        )
        let read = try GiflibReadback(try GIFFixtureEncoder().encode(animation))
        #expect(read.globalPalette == palette(3) + [0, 0, 0])
        #expect(read.frames.first?.indices == [0, 1, 2])
    }

    @Test("per-frame local 256-colour tables are written when asked")
    func localPalettes() throws {
        let animation = try SyntheticAnimation.make(width: 16, height: 12, frameCount: 3, localPalettes: true, seed: 12)
        let read = try GiflibReadback(try GIFFixtureEncoder().encode(animation))
        #expect(read.globalPalette == nil)
        #expect(read.frames.allSatisfy { $0.localPalette?.count == 768 })
        #expect(read.frames[0].localPalette != read.frames[1].localPalette)
    }

    @Test(
        "inconsistent input is a typed encodingFailed error",
        arguments: [
            GIFFixtureAnimation(
                width: 2, height: 2, globalPalette: [1, 2, 3], frames: [GIFFixtureFrame(indices: [0, 0, 0], width: 2, height: 2)]),
            GIFFixtureAnimation(
                width: 2, height: 2, globalPalette: [], frames: [GIFFixtureFrame(indices: [0, 0, 0, 0], width: 2, height: 2)]),
            GIFFixtureAnimation(
                width: 2, height: 2, globalPalette: [1, 2], frames: [GIFFixtureFrame(indices: [0, 0, 0, 0], width: 2, height: 2)]),
            GIFFixtureAnimation(
                width: 2, height: 2, globalPalette: nil, frames: [GIFFixtureFrame(indices: [0, 0, 0, 0], width: 2, height: 2)]),
            GIFFixtureAnimation(width: 70_000, height: 2, globalPalette: [1, 2, 3], frames: []),
        ])
    func rejectsBadInput(_ animation: GIFFixtureAnimation) {
        let error = #expect(throws: ImageDecodingError.self) { try GIFFixtureEncoder().encode(animation) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.format == .gif)
    }
}
