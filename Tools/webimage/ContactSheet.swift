import Foundation
import WebImage

/// One PNG showing every image of a run as a thumbnail: a grid of square cells on a
/// neutral grey, each image scaled to fit its cell (never enlarged) and centred, its
/// first frame for an animation. Translucent pixels are blended over the grey, so the
/// sheet is opaque, stored as RGBA.
///
/// Thumbnails are made as images arrive (``add(_:)``), so a long run keeps 160x160
/// pixels per image rather than every full-size image.
struct ContactSheet {
    /// The side of one cell, in pixels.
    static let cellSize = 160
    /// Space kept clear around each thumbnail, so neighbours never touch.
    static let margin = 6
    /// The neutral grey behind the thumbnails: light enough for dark photos, dark enough
    /// to show the edge of white ones.
    static let background: (red: UInt8, green: UInt8, blue: UInt8) = (200, 200, 200)

    private(set) var thumbnails: [ImageBitmap] = []

    var isEmpty: Bool { thumbnails.isEmpty }

    /// Scales `image`'s first frame into a cell and keeps it.
    mutating func add(_ image: DecodedImage) throws(ImageDecodingError) {
        // Only the first frame is drawn, so only it is scaled (not all 30 of a GIF).
        let still = DecodedImage(format: image.format, frames: [image.frames[0]], sourceSize: image.sourceSize)
        let box = Self.cellSize - 2 * Self.margin
        thumbnails.append(try ResizeTransformer(width: box, height: box, mode: .fit).transform(still).bitmap)
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
                let left = (index % columns) * Self.cellSize + (Self.cellSize - thumbnail.width) / 2
                let top = (index / columns) * Self.cellSize + (Self.cellSize - thumbnail.height) / 2
                Self.draw(thumbnail, into: pixels, stride: stride, left: left, top: top)
            }
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
