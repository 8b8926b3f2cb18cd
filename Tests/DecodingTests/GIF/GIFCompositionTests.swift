import Foundation
import Testing
import WebImageCore
import WebImageDecoding

/// How frames land on the logical screen, on files written byte by byte so each pixel
/// is known (default global table: 0 black, 1 red, 2 green, 3 blue).
@Suite("GIF composition")
struct GIFCompositionTests {
    static let transparent: [UInt8] = [0, 0, 0, 0]
    static let black: [UInt8] = [0, 0, 0, 255]
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]

    static func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        bitmap.withUnsafeBytes { bytes in
            let start = y * bitmap.bytesPerRow + x * 4
            return Array(bytes[start..<(start + 4)])
        }
    }

    static func decode(_ file: GIFTestFile) throws -> DecodedImage {
        try GIFDecoder().decode(file.data)
    }

    @Test("the canvas starts transparent and the background colour is ignored")
    func transparentStart() throws {
        var file = GIFTestFile(width: 4, height: 4)
        file.frames = [.init(left: 1, top: 1, width: 2, height: 2, indices: [1, 1, 1, 1])]
        let image = try Self.decode(file)
        #expect(image.size == PixelSize(width: 4, height: 4))
        #expect(Self.pixel(image.bitmap, 0, 0) == Self.transparent)
        #expect(Self.pixel(image.bitmap, 3, 3) == Self.transparent)
        #expect(Self.pixel(image.bitmap, 1, 1) == Self.red)
        #expect(Self.pixel(image.bitmap, 2, 2) == Self.red)
    }

    @Test("pixels with the transparent index leave the canvas as it was")
    func transparentIndex() throws {
        var file = GIFTestFile(width: 2, height: 1)
        file.frames = [
            .init(width: 2, height: 1, indices: [2, 2], disposal: 1),
            .init(width: 2, height: 1, indices: [0, 1], transparentIndex: 0),
        ]
        let image = try Self.decode(file)
        #expect(Self.pixel(image.frames[1].bitmap, 0, 0) == Self.green)
        #expect(Self.pixel(image.frames[1].bitmap, 1, 0) == Self.red)
    }

    @Test("disposal 1 leaves the frame, 2 clears its rectangle, 3 restores it")
    func disposals() throws {
        // Frame 0 paints the screen green; frame 1 paints (0,0) red with the disposal
        // under test; frame 2 paints (1,0) blue. Frame 2's (0,0) shows the disposal.
        for (disposal, expected) in [(UInt8(1), Self.red), (2, Self.transparent), (3, Self.green), (0, Self.red)] {
            var file = GIFTestFile(width: 2, height: 1)
            file.frames = [
                .init(width: 2, height: 1, indices: [2, 2], disposal: 1),
                .init(width: 1, height: 1, indices: [1], disposal: disposal),
                .init(left: 1, width: 1, height: 1, indices: [3]),
            ]
            let image = try Self.decode(file)
            #expect(Self.pixel(image.frames[1].bitmap, 0, 0) == Self.red, "disposal \(disposal)")
            #expect(Self.pixel(image.frames[2].bitmap, 0, 0) == expected, "disposal \(disposal)")
            #expect(Self.pixel(image.frames[2].bitmap, 1, 0) == Self.blue, "disposal \(disposal)")
        }
    }

    @Test("disposal 3 on the first frame restores the transparent canvas")
    func restoreToStart() throws {
        var file = GIFTestFile(width: 2, height: 1)
        file.frames = [
            .init(width: 2, height: 1, indices: [1, 1], disposal: 3),
            .init(left: 1, width: 1, height: 1, indices: [3]),
        ]
        let image = try Self.decode(file)
        #expect(Self.pixel(image.frames[0].bitmap, 0, 0) == Self.red)
        #expect(Self.pixel(image.frames[1].bitmap, 0, 0) == Self.transparent)
        #expect(Self.pixel(image.frames[1].bitmap, 1, 0) == Self.blue)
    }

    @Test("a local table wins; an index outside the table is opaque black")
    func colourTables() throws {
        var file = GIFTestFile(width: 3, height: 1)
        file.globalTable = [(9, 9, 9), (8, 8, 8)]
        file.frames = [.init(width: 3, height: 1, indices: [0, 1, 200], localTable: [(10, 20, 30), (40, 50, 60)])]
        let image = try Self.decode(file)
        #expect(Self.pixel(image.bitmap, 0, 0) == [10, 20, 30, 255])
        #expect(Self.pixel(image.bitmap, 1, 0) == [40, 50, 60, 255])
        #expect(Self.pixel(image.bitmap, 2, 0) == Self.black)
    }

    @Test("a frame with no colour table at all draws opaque black")
    func noTable() throws {
        var file = GIFTestFile(width: 2, height: 1)
        file.globalTable = nil
        file.frames = [.init(width: 2, height: 1, indices: [1, 7])]
        let image = try Self.decode(file)
        #expect(Self.pixel(image.bitmap, 0, 0) == Self.black)
        #expect(Self.pixel(image.bitmap, 1, 0) == Self.black)
    }

    @Test("frames are clipped to the screen, and frames off the screen draw nothing")
    func clipping() throws {
        var file = GIFTestFile(width: 2, height: 2)
        file.frames = [
            .init(left: 1, top: 1, width: 3, height: 3, indices: [UInt8](repeating: 1, count: 9)),
            .init(left: 10, top: 0, width: 2, height: 2, indices: [3, 3, 3, 3]),
        ]
        let image = try Self.decode(file)
        #expect(image.frames.count == 2)
        #expect(Self.pixel(image.frames[0].bitmap, 1, 1) == Self.red)
        #expect(Self.pixel(image.frames[0].bitmap, 0, 0) == Self.transparent)
        #expect(Self.pixel(image.frames[0].bitmap, 1, 0) == Self.transparent)
        #expect(image.frames[1].bitmap == image.frames[0].bitmap)
    }

    @Test("interlaced rows are placed where they belong")
    func interlacing() throws {
        let height = 19
        let rows = (0..<height).map { UInt8($0 % 4) }
        var plain = GIFTestFile(width: 1, height: height)
        plain.frames = [.init(width: 1, height: height, indices: rows)]
        var interlaced = plain
        interlaced.frames[0].interlaced = true
        #expect(plain.data != interlaced.data)
        let expected = try Self.decode(plain).bitmap
        #expect(try Self.decode(interlaced).bitmap == expected)
        #expect(Self.pixel(expected, 0, 5) == Self.red)
        #expect(Self.pixel(expected, 0, 6) == Self.green)
    }

    @Test("delays: stored as written, 10 ms or less plays as 100 ms")
    func delays() throws {
        var file = GIFTestFile(width: 1, height: 1)
        file.frames = [0, 1, 2, 150].map { .init(width: 1, height: 1, indices: [1], delayHundredths: $0) }
        let image = try Self.decode(file)
        #expect(image.frames.map(\.storedDelay) == [.zero, .milliseconds(10), .milliseconds(20), .milliseconds(1500)])
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(100), .milliseconds(20), .milliseconds(1500)])
        #expect(image.loopCount == 1, "no NETSCAPE2.0 extension plays once")
    }

    @Test("a single-frame GIF is a still: duration zero")
    func still() throws {
        var file = GIFTestFile(width: 1, height: 1)
        file.frames = [.init(width: 1, height: 1, indices: [1], delayHundredths: 50)]
        let image = try Self.decode(file)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero)
        #expect(image.frames[0].storedDelay == .milliseconds(500))
    }

    @Test("the NETSCAPE2.0 loop count is kept as stored", arguments: [UInt16(0), 1, 7, 65535])
    func loopCount(_ loops: UInt16) throws {
        var file = GIFTestFile(width: 1, height: 1, loopCount: loops)
        file.frames = [.init(width: 1, height: 1, indices: [1]), .init(width: 1, height: 1, indices: [2])]
        #expect(try Self.decode(file).loopCount == Int(loops))
    }

    @Test("a zero-sized frame is a frame that draws nothing")
    func emptyFrame() throws {
        var file = GIFTestFile(width: 1, height: 1)
        file.frames = [.init(width: 1, height: 1, indices: [1]), .init(width: 0, height: 0, indices: [])]
        let image = try Self.decode(file)
        #expect(image.frames.count == 2)
        #expect(image.frames[1].bitmap == image.frames[0].bitmap)
    }
}
