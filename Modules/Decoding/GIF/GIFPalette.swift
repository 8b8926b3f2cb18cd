internal import CGIFLib

/// A colour table as 256 ready-to-store RGBA pixels.
///
/// Entries past the table's own size are opaque black: a frame may use indices its
/// table does not have, and that is the rule the corpus reference follows. A frame with
/// no table at all (neither local nor global) uses ``missing``, all opaque black.
struct GIFPalette {
    /// RGBA bytes of each entry packed in memory order, ready for a `UInt32` store.
    let pixels: [UInt32]

    /// Opaque black, as bytes in memory order.
    static let opaqueBlack = GIFPalette.pack(0, 0, 0, 255)

    /// The palette of a frame with no colour table.
    static let missing = GIFPalette(pixels: [UInt32](repeating: opaqueBlack, count: 256))

    private init(pixels: [UInt32]) {
        self.pixels = pixels
    }

    init(_ map: UnsafeMutablePointer<ColorMapObject>) {
        var pixels = [UInt32](repeating: GIFPalette.opaqueBlack, count: 256)
        let count = min(256, max(0, Int(map.pointee.ColorCount)))
        if let colors = map.pointee.Colors {
            for index in 0..<count {
                let color = colors[index]
                pixels[index] = GIFPalette.pack(color.Red, color.Green, color.Blue, 255)
            }
        }
        self.pixels = pixels
    }

    /// Four bytes r, g, b, a as the `UInt32` that stores them in that memory order.
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        let bytes = (UInt32(r), UInt32(g) << 8, UInt32(b) << 16, UInt32(a) << 24)
        return UInt32(littleEndian: bytes.0 | bytes.1 | bytes.2 | bytes.3)
    }
}
