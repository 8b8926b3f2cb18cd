import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// The captions `webimage fetch --contact-sheet` draws under its thumbnails, read back
/// from the PNG: cells of 160x160 with a 6-pixel margin; three caption lines 10 pixels
/// apart, the first at row 126, each centred across its cell; glyphs 5 pixels wide and 8
/// tall that advance 6; a thumbnail standing 4 pixels above its caption.
@Suite("webimage contact sheet captions")
struct ContactSheetCaptionTests {
    static let cell = 160
    static let margin = 6
    static let captionTop = 126
    static let lineHeight = 10
    static let advance = 6
    static let longName = "a-name-much-too-long-for-its-cell.png"

    /// The sheet's pixels, and what the tests read from them.
    struct Sheet {
        let width: Int
        let height: Int
        let pixels: [UInt8]

        init(_ file: URL) throws {
            let bitmap = try PNGDecoder().decode(try Data(contentsOf: file)).bitmap
            #expect(bitmap.pixelFormat == .rgba8)
            width = bitmap.width
            height = bitmap.height
            pixels = bitmap.packedBytes
        }

        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * width + x) * 4..<(y * width + x) * 4 + 4]) }

        /// Text is drawn dark on the light grey: every channel under 100.
        func isInk(_ x: Int, _ y: Int) -> Bool { pixel(x, y)[0..<3].allSatisfy { $0 < 100 } }

        /// The 5x8 block of pixels whose top-left corner is `x`, `y`, a string per row:
        /// `#` for ink, `.` for anything else.
        func glyph(x: Int, y: Int) -> [String] {
            (0..<8).map { row in String((0..<5).map { isInk(x + $0, y + row) ? "#" : "." }) }
        }

        /// The first and last columns, from the cell's left edge, holding ink in caption
        /// line `line` (0 to 2) of the cell at `column` in the first row.
        func inkColumns(cell column: Int, line: Int) -> ClosedRange<Int>? {
            let top = captionTop + line * lineHeight
            let inked = (0..<cell).filter { x in (top..<top + 8).contains { isInk(column * cell + x, $0) } }
            guard let first = inked.first, let last = inked.last else { return nil }
            return first...last
        }
    }

    /// Serves a folder holding HI.png (20x20, solid red), an image whose name is too long
    /// for one cell, and spin.gif (40x30, 5 frames), and fetches the three into one sheet.
    private func fetchSheet() throws -> Sheet {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let red = try PNGFixtureEncoder().encode(try SyntheticImage.solid(width: 20, height: 20, rgba: [220, 30, 30, 255]))
        try red.write(to: files.appendingPathComponent("HI.png"))
        try red.write(to: files.appendingPathComponent(Self.longName))
        let spin = try GIFFixtureEncoder().encode(
            SyntheticAnimation.make(width: 40, height: 30, frameCount: 5, delayCentiseconds: 7, loopCount: 0))
        try spin.write(to: files.appendingPathComponent("spin.gif"))

        let server = try ServedFolder(files)
        defer { server.stop() }
        let sheetFile = folder.appendingPathComponent("sheet.png")
        let run = try WebImageProgram.run(
            ["fetch", "--no-disk-cache", "--contact-sheet", sheetFile.path] + ["HI.png", Self.longName, "spin.gif"].map(server.url))
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let sheet = try Sheet(sheetFile)
        #expect(sheet.width == 3 * Self.cell && sheet.height == Self.cell, "three images make one row of three cells")
        return sheet
    }

    @Test("each thumbnail stands on its caption: the name, then format and size, then frames and source")
    func captionLines() throws {
        let sheet = try fetchSheet()
        let red: [UInt8] = [220, 30, 30, 255]
        let grey: [UInt8] = [200, 200, 200, 255]
        // HI.png, 20x20: centred across the cell, its bottom row 4 pixels above the caption.
        #expect(sheet.pixel(80, 121) == red)
        #expect(sheet.pixel(80, 102) == red)
        #expect(sheet.pixel(80, 101) == grey)
        #expect(sheet.pixel(80, 122) == grey)
        #expect(sheet.pixel(69, 110) == grey && sheet.pixel(70, 110) == red && sheet.pixel(89, 110) == red)

        // "HI.png" is 6 glyphs, 35 pixels wide: it starts at (160 - 35) / 2 = 62.
        #expect(sheet.glyph(x: 62, y: Self.captionTop) == ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#", "....."])
        #expect(sheet.glyph(x: 68, y: Self.captionTop) == [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###.", "....."])
        #expect(sheet.glyph(x: 74, y: Self.captionTop) == [".....", ".....", ".....", ".....", ".....", ".##..", ".##..", "....."])
        // H's first column to g's last; only the tails of p and g reach the eighth row.
        #expect(sheet.inkColumns(cell: 0, line: 0) == 62...96)
        #expect((62...96).filter { sheet.isInk($0, Self.captionTop + 7) } == [80, 93, 94, 95])

        // "png 20x20" (9 glyphs, 53 pixels) and "network" (7 glyphs, 41 pixels), centred.
        #expect(sheet.inkColumns(cell: 0, line: 1) == 53...105)
        #expect(sheet.inkColumns(cell: 0, line: 2).map { $0.lowerBound == 59 && $0.upperBound <= 99 } == true)
        // An animation's frames come before the source: "gif 40x30", "5 frames, network"
        // (17 glyphs, 101 pixels, from 29).
        #expect(sheet.inkColumns(cell: 2, line: 1) == 53...105)
        #expect(sheet.inkColumns(cell: 2, line: 2).map { $0.lowerBound == 29 && $0.upperBound > 99 } == true)
        #expect(sheet.glyph(x: 2 * Self.cell + 29, y: Self.captionTop + 2 * Self.lineHeight)[0] == "#####", "the 5 of 5 frames")

        // The name is the darkest line.
        let nameInk = try #require((62...96).lazy.map { sheet.pixel($0, Self.captionTop + 3) }.first { $0[0] < 100 })
        let detailInk = try #require((53...105).lazy.map { sheet.pixel($0, Self.captionTop + 13) }.first { $0[0] < 100 })
        #expect(nameInk[0] < detailInk[0])
    }

    @Test("a line wider than its cell is cut and ends in an ellipsis, inside the cell's margin")
    func ellipsis() throws {
        let sheet = try fetchSheet()
        // 148 pixels inside the margins hold 24 glyphs: 23 of the name and the ellipsis,
        // 143 pixels from (160 - 143) / 2 = 8.
        let left = Self.cell + 8
        #expect(sheet.inkColumns(cell: 1, line: 0) == 8...150)
        #expect(
            sheet.glyph(x: left, y: Self.captionTop) == [".....", ".....", ".###.", "....#", ".####", "#...#", ".####", "....."],
            "the name's first letter")
        #expect(
            sheet.glyph(x: left + 23 * Self.advance, y: Self.captionTop)
                == [".....", ".....", ".....", ".....", ".....", ".....", "#.#.#", "....."],
            "three dots on the baseline end the line")
        // The 23rd glyph is the name's 23rd character, the "o" of "for".
        #expect(
            sheet.glyph(x: left + 22 * Self.advance, y: Self.captionTop)
                == [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###.", "....."])
        // Nothing of any caption line reaches the margins.
        for y in Self.captionTop..<Self.cell {
            for x in Array(0..<Self.margin) + Array(Self.cell - Self.margin..<Self.cell) {
                #expect(!sheet.isInk(Self.cell + x, y), "ink at \(x), \(y) of the second cell")
            }
        }
        // The other lines fit whole: "png 20x20" and "network", as in the first cell.
        #expect(sheet.inkColumns(cell: 1, line: 1) == sheet.inkColumns(cell: 0, line: 1))
        #expect(sheet.inkColumns(cell: 1, line: 2) == sheet.inkColumns(cell: 0, line: 2))
    }
}
