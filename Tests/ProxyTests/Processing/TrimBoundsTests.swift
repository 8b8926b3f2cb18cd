import Testing
import WebImageCore
import WebImageDecoding

@testable import WebImageProxy

@Suite("Trim: the bounding box of what differs from the background")
struct TrimBoundsTests {
    /// A `width` x `height` image of `background` with `content` in `box`.
    static func image(
        width: Int = 40, height: Int = 30, background: [UInt8] = [255, 255, 255, 255], content: [UInt8] = [0, 0, 0, 255],
        box: PixelRect, noise: [(x: Int, y: Int)] = []
    ) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, row in
            for y in 0..<height {
                for x in 0..<width {
                    let inside = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height
                    let isNoise = noise.contains { $0.x == x && $0.y == y }
                    for channel in 0..<4 { bytes[y * row + x * 4 + channel] = inside || isNoise ? content[channel] : background[channel] }
                }
            }
        }
    }

    @Test("a block on a plain background is cut out exactly, the background taken from the top-left pixel")
    func block() throws {
        let box = PixelRect(x: 7, y: 5, width: 20, height: 12)
        #expect(TrimBounds.find(in: try Self.image(box: box), .init(threshold: 10)) == box)
        let dark = try Self.image(background: [10, 20, 30, 255], content: [200, 200, 200, 255], box: box)
        #expect(TrimBounds.find(in: dark, .init(threshold: 10)) == box)
    }

    @Test("a lone pixel is noise to the 3x3 median, and differences within the threshold are background")
    func noiseAndThreshold() throws {
        let box = PixelRect(x: 10, y: 10, width: 10, height: 10)
        let speckled = try Self.image(box: box, noise: [(2, 2), (35, 25)])
        #expect(TrimBounds.find(in: speckled, .init(threshold: 10)) == box)
        let faint = try Self.image(content: [250, 250, 250, 255], box: box)
        #expect(TrimBounds.find(in: faint, .init(threshold: 10)) == nil, "5 levels from white is background at threshold 10")
        #expect(TrimBounds.find(in: faint, .init(threshold: 4)) == box)
    }

    @Test("a colour given is the background, whatever the corner holds")
    func givenColour() throws {
        // Black block at the top-left corner on white: with white as the background, the block stays.
        let box = PixelRect(x: 0, y: 0, width: 15, height: 10)
        let image = try Self.image(box: box)
        #expect(TrimBounds.find(in: image, .init(threshold: 10, color: .init(red: 255, green: 255, blue: 255))) == box)
        // With the corner's black as the background, the white around the block is the
        // content, and it reaches every edge.
        #expect(TrimBounds.find(in: image, .init(threshold: 10)) == nil)
    }

    @Test("transparent borders are trimmed as the magenta they are flattened over")
    func transparentBorders() throws {
        let box = PixelRect(x: 4, y: 6, width: 30, height: 10)
        let image = try Self.image(background: [0, 0, 0, 0], content: [0, 128, 0, 255], box: box)
        #expect(TrimBounds.find(in: image, .init(threshold: 10)) == box)
    }

    @Test("equal trims cut the smaller margin from both sides")
    func equalTrims() throws {
        // Margins: left 7, right 13, top 5, bottom 13.
        let box = PixelRect(x: 7, y: 5, width: 20, height: 12)
        let image = try Self.image(box: box)
        #expect(TrimBounds.find(in: image, .init(threshold: 10, equalHorizontal: true)) == PixelRect(x: 7, y: 5, width: 26, height: 12))
        #expect(TrimBounds.find(in: image, .init(threshold: 10, equalVertical: true)) == PixelRect(x: 7, y: 5, width: 20, height: 20))
        // Left margin the larger: the left edge moves to the right margin's width.
        let leaning = try Self.image(box: PixelRect(x: 15, y: 5, width: 20, height: 12))
        #expect(TrimBounds.find(in: leaning, .init(threshold: 10, equalHorizontal: true)) == PixelRect(x: 5, y: 5, width: 30, height: 12))
    }

    @Test("an image all background, one with content to its edges, and one under 3x3 are left whole")
    func leftWhole() throws {
        #expect(TrimBounds.find(in: try Self.image(box: PixelRect(x: 0, y: 0, width: 0, height: 0)), .init(threshold: 10)) == nil)
        let full = try Self.image(background: [0, 0, 0, 255], content: [0, 0, 0, 255], box: PixelRect(x: 0, y: 0, width: 40, height: 30))
        #expect(TrimBounds.find(in: full, .init(threshold: 10)) == nil)
        let tiny = try Self.image(width: 2, height: 2, box: PixelRect(x: 1, y: 1, width: 1, height: 1))
        #expect(TrimBounds.find(in: tiny, .init(threshold: 10)) == nil)
    }
}
