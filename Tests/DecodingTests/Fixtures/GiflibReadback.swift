import CGIFLib
import Foundation

/// A GIF as giflib's DGifSlurp reads it.
struct GiflibReadback {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Frame {
        var left, top, width, height: Int
        var interlaced: Bool
        /// Local colour table as RGB triples (padded to a power of two), or nil.
        var localPalette: [UInt8]?
        /// Indices in display order (DGifSlurp undoes interlacing).
        var indices: [UInt8]
        var delayCentiseconds: Int?
        var disposal: Int?
        var transparentIndex: Int?
    }

    var width: Int
    var height: Int
    var globalPalette: [UInt8]?
    var loopCount: Int?
    var frames: [Frame]

    private final class Cursor {
        let data: Data
        var offset = 0
        init(_ data: Data) { self.data = data }
    }

    init(_ data: Data) throws {
        let cursor = Cursor(data)
        var error: Int32 = 0
        let read: InputFunc = { gif, buffer, length in
            guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
            let cursor = Unmanaged<Cursor>.fromOpaque(user).takeUnretainedValue()
            let count = Swift.min(Int(length), cursor.data.count - cursor.offset)
            cursor.data.copyBytes(
                to: buffer, from: (cursor.data.startIndex + cursor.offset)..<(cursor.data.startIndex + cursor.offset + count))
            cursor.offset += count
            return Int32(count)
        }
        guard let gif = withExtendedLifetime(cursor, { DGifOpen(Unmanaged.passUnretained(cursor).toOpaque(), read, &error) }) else {
            throw GiflibReadback.Failure(description: "DGifOpen failed: \(error)")
        }
        defer { DGifCloseFile(gif, &error) }
        let slurped = withExtendedLifetime(cursor) { DGifSlurp(gif) }
        guard slurped == GIF_OK else {
            throw GiflibReadback.Failure(description: "DGifSlurp failed: \(gif.pointee.Error)")
        }
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        globalPalette = Self.palette(gif.pointee.SColorMap)
        loopCount = nil
        frames = []
        for index in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[index]
            let desc = saved.ImageDesc
            let count = Int(desc.Width) * Int(desc.Height)
            var frame = Frame(
                left: Int(desc.Left), top: Int(desc.Top), width: Int(desc.Width), height: Int(desc.Height),
                interlaced: desc.Interlace,
                localPalette: Self.palette(desc.ColorMap),
                indices: Array(UnsafeBufferPointer(start: saved.RasterBits, count: count))
            )
            var control = GraphicsControlBlock()
            if DGifSavedExtensionToGCB(gif, Int32(index), &control) == GIF_OK, Self.hasControl(saved) {
                frame.delayCentiseconds = Int(control.DelayTime)
                frame.disposal = Int(control.DisposalMode)
                frame.transparentIndex = Int(control.TransparentColor)
            }
            if let loops = Self.netscapeLoopCount(saved) { loopCount = loops }
            frames.append(frame)
        }
    }

    private static func hasControl(_ saved: SavedImage) -> Bool {
        (0..<Int(saved.ExtensionBlockCount)).contains { saved.ExtensionBlocks[$0].Function == GRAPHICS_EXT_FUNC_CODE }
    }

    private static func netscapeLoopCount(_ saved: SavedImage) -> Int? {
        let blocks = (0..<Int(saved.ExtensionBlockCount)).map { saved.ExtensionBlocks[$0] }
        for (i, block) in blocks.enumerated() where block.Function == APPLICATION_EXT_FUNC_CODE && i + 1 < blocks.count {
            let name = Array(UnsafeBufferPointer(start: block.Bytes, count: Int(block.ByteCount)))
            let sub = Array(UnsafeBufferPointer(start: blocks[i + 1].Bytes, count: Int(blocks[i + 1].ByteCount)))
            if name == Array("NETSCAPE2.0".utf8), sub.count == 3, sub[0] == 1 {
                return Int(sub[1]) | Int(sub[2]) << 8
            }
        }
        return nil
    }

    private static func palette(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt8]? {
        guard let map else { return nil }
        return (0..<Int(map.pointee.ColorCount)).flatMap { i -> [UInt8] in
            let color = map.pointee.Colors[i]
            return [color.Red, color.Green, color.Blue]
        }
    }
}
