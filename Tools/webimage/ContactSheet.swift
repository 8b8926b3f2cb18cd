import Foundation
import WebImage

/// One PNG showing every image of a run as a thumbnail: a grid of square cells on a
/// neutral grey, each image scaled to fit above its caption (never enlarged), centred
/// across the cell and standing on the caption, its first frame for an animation.
/// Translucent pixels are blended over the grey, so the sheet is opaque, stored as RGBA.
///
/// The caption (``Caption``) is three lines of ``BitmapFont`` text, centred: the name,
/// then format and size, then frames and source. A line wider than the cell ends in an
/// ellipsis, and nothing is drawn past the cell's margin.
///
/// Thumbnails are made as images arrive (``add(_:caption:)``), so a long run keeps
/// 160x160 pixels per image rather than every full-size image.
struct ContactSheet {
    /// The side of one cell, in pixels.
    static let cellSize = 160
    /// Space kept clear around each thumbnail, so neighbours never touch.
    static let margin = 6
    /// The neutral grey behind the thumbnails: light enough for dark photos, dark enough
    /// to show the edge of white ones.
    static let background: (red: UInt8, green: UInt8, blue: UInt8) = (200, 200, 200)
    /// The caption's ink: the name near black, the lines under it a dark grey, both
    /// well apart from ``background``.
    static let nameColor: (red: UInt8, green: UInt8, blue: UInt8) = (20, 20, 20)
    static let detailColor: (red: UInt8, green: UInt8, blue: UInt8) = (70, 70, 70)
    /// From one caption line's top to the next one's: a glyph and two rows of space.
    static let lineHeight = BitmapFont.glyphHeight + 2
    /// Space between a thumbnail's bottom edge and its caption.
    static let captionGap = 4
    /// The first caption line's top, in a cell: the last line's glyphs end at the margin.
    static let captionTop = cellSize - margin - ((Caption.lineCount - 1) * lineHeight + BitmapFont.glyphHeight)
    /// The room for a thumbnail: the cell's width and the height above the caption,
    /// inside the margin.
    static let thumbnailBox = PixelSize(width: cellSize - 2 * margin, height: captionTop - captionGap - margin)

    private(set) var thumbnails: [ImageBitmap] = []
    private(set) var captions: [Caption] = []

    var isEmpty: Bool { thumbnails.isEmpty }

    /// Scales `image`'s first frame into a cell and keeps it with its caption.
    mutating func add(_ image: DecodedImage, caption: Caption) throws(ImageDecodingError) {
        // Only the first frame is drawn, so only it is scaled (not all 30 of a GIF).
        let still = DecodedImage(format: image.format, frames: [image.frames[0]], sourceSize: image.sourceSize)
        let box = Self.thumbnailBox
        thumbnails.append(try ResizeTransformer(width: box.width, height: box.height, mode: .fit).transform(still).bitmap)
        captions.append(caption)
    }

    /// Columns and rows for `count` cells: about 16:9, as a screen is, and never more
    /// columns than cells (so 2 images make a 2x1 sheet and 8 a 4x2 one).
    static func grid(count: Int) -> (columns: Int, rows: Int) {
        guard count > 0 else { return (0, 0) }
        let columns = min(count, Int((Double(count) * 16 / 9).squareRoot().rounded(.up)))
        return (columns, (count + columns - 1) / columns)
    }

    /// The sheet's size in pixels.
    var size: PixelSize {
        let (columns, rows) = Self.grid(count: thumbnails.count)
        return PixelSize(width: columns * Self.cellSize, height: rows * Self.cellSize)
    }

    /// The sheet's pixels, RGBA.
    func render() throws(ImageDecodingError) -> ImageBitmap {
        let size = self.size
        let columns = Self.grid(count: thumbnails.count).columns
        return try ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8) { pixels, stride in
            let grey = Self.background
            for offset in Swift.stride(from: 0, to: stride * size.height, by: 4) {
                pixels[offset] = grey.red
                pixels[offset + 1] = grey.green
                pixels[offset + 2] = grey.blue
                pixels[offset + 3] = 255
            }
            for (index, thumbnail) in thumbnails.enumerated() {
                let cellLeft = (index % columns) * Self.cellSize
                let cellTop = (index / columns) * Self.cellSize
                let left = cellLeft + (Self.cellSize - thumbnail.width) / 2
                let top = cellTop + Self.captionTop - Self.captionGap - thumbnail.height
                Self.draw(thumbnail, into: pixels, stride: stride, left: left, top: top)
                // A caption stays inside its cell's margins, whatever its lines hold.
                let clip = (
                    columns: cellLeft + Self.margin..<cellLeft + Self.cellSize - Self.margin, rows: cellTop..<cellTop + Self.cellSize
                )
                for line in Self.layout(captions[index]) {
                    BitmapFont.draw(
                        line.text, into: pixels, bytesPerRow: stride, x: cellLeft + line.x, y: cellTop + line.y, color: line.color,
                        clip: clip)
                }
            }
        }
    }

    /// One caption line placed in its cell: the text as drawn (cut to fit, with an
    /// ellipsis), and its top-left corner from the cell's.
    struct CaptionLine: Equatable {
        let text: String
        let x: Int
        let y: Int
        let isName: Bool

        var color: (red: UInt8, green: UInt8, blue: UInt8) { isName ? ContactSheet.nameColor : ContactSheet.detailColor }
    }

    /// Where `caption`'s lines go in a cell: one under another from ``captionTop``, each
    /// cut to the width inside the margins and centred across the cell.
    static func layout(_ caption: Caption) -> [CaptionLine] {
        caption.lines.enumerated().map { number, line in
            let text = BitmapFont.fitting(line, in: cellSize - 2 * margin)
            return CaptionLine(
                text: text, x: (cellSize - BitmapFont.width(of: text)) / 2, y: captionTop + number * lineHeight, isName: number == 0)
        }
    }

    /// Writes the sheet as a PNG file.
    ///
    /// - Returns: its size in pixels.
    @discardableResult
    func write(to file: URL) throws -> PixelSize {
        guard !isEmpty else { throw ImageDecodingError(.invalidDimensions, "a contact sheet needs at least one image") }
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PNGEncoder().encode(try render()).write(to: file, options: .atomic)
        return size
    }

    /// Blends `thumbnail` (straight alpha) over the opaque sheet at `left`, `top`.
    private static func draw(_ thumbnail: ImageBitmap, into sheet: UnsafeMutableRawBufferPointer, stride: Int, left: Int, top: Int) {
        let sourceBytes = thumbnail.pixelFormat.bytesPerPixel
        thumbnail.withUnsafeBytes { source in
            for y in 0..<thumbnail.height {
                for x in 0..<thumbnail.width {
                    let from = y * thumbnail.bytesPerRow + x * sourceBytes
                    let to = (top + y) * stride + (left + x) * 4
                    let rgba: (UInt8, UInt8, UInt8, UInt8) =
                        switch thumbnail.pixelFormat {
                        case .rgba8: (source[from], source[from + 1], source[from + 2], source[from + 3])
                        case .gray8: (source[from], source[from], source[from], 255)
                        }
                    let alpha = Int(rgba.3)
                    func blend(_ value: UInt8, over base: UInt8) -> UInt8 {
                        UInt8((Int(value) * alpha + Int(base) * (255 - alpha) + 127) / 255)
                    }
                    sheet[to] = blend(rgba.0, over: sheet[to])
                    sheet[to + 1] = blend(rgba.1, over: sheet[to + 1])
                    sheet[to + 2] = blend(rgba.2, over: sheet[to + 2])
                }
            }
        }
    }
}
