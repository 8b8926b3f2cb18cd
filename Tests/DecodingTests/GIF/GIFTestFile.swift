import Foundation

/// Writes small GIF files byte by byte, so tests can state exactly what each pixel
/// must become.
///
/// The LZW data is "uncompressed": a clear code before every pixel keeps the code width
/// at code size + 1, which every decoder must accept.
struct GIFTestFile {
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        /// Palette indices, row by row from the top (the builder interlaces them).
        var indices: [UInt8]
        var localTable: [(UInt8, UInt8, UInt8)]? = nil
        var transparentIndex: UInt8? = nil
        var disposal: UInt8 = 0
        var delayHundredths: UInt16 = 0
        var interlaced = false
        /// Writes a graphics control extension even without transparency or delay.
        var writesControl = true
    }

    var width: Int
    var height: Int
    var globalTable: [(UInt8, UInt8, UInt8)]? = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
    var loopCount: UInt16? = nil
    var frames: [Frame] = []
    var writesTrailer = true

    var data: Data {
        var out = Data("GIF89a".utf8)
        out.append(word(width))
        out.append(word(height))
        out.append(tableFlags(globalTable) | 0x70)
        out.append(contentsOf: [0, 0])
        out.append(table(globalTable))
        if let loopCount {
            out.append(contentsOf: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1])
            out.append(word(Int(loopCount)))
            out.append(0)
        }
        for frame in frames {
            if frame.writesControl {
                let packed = frame.disposal << 2 | (frame.transparentIndex == nil ? 0 : 1)
                out.append(contentsOf: [0x21, 0xF9, 4, packed])
                out.append(word(Int(frame.delayHundredths)))
                out.append(contentsOf: [frame.transparentIndex ?? 0, 0])
            }
            out.append(0x2C)
            out.append(word(frame.left))
            out.append(word(frame.top))
            out.append(word(frame.width))
            out.append(word(frame.height))
            out.append(tableFlags(frame.localTable) | (frame.interlaced ? 0x40 : 0))
            out.append(table(frame.localTable))
            out.append(lzw(interlacedOrder(frame)))
        }
        if writesTrailer { out.append(0x3B) }
        return out
    }

    /// Byte offset where frame `index`'s image descriptor starts.
    func descriptorOffset(ofFrame index: Int) -> Int {
        var copy = self
        copy.frames = Array(frames.prefix(index))
        copy.writesTrailer = false
        return copy.data.count + (frames[index].writesControl ? 8 : 0)
    }

    private func interlacedOrder(_ frame: Frame) -> [UInt8] {
        guard frame.interlaced else { return frame.indices }
        var rows: [Int] = []
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            rows.append(contentsOf: stride(from: start, to: frame.height, by: step))
        }
        return rows.flatMap { frame.indices[($0 * frame.width)..<(($0 + 1) * frame.width)] }
    }

    /// Code size 8 (so any index 0...255 is a literal), a clear code before each pixel,
    /// then the end code, in sub-blocks of at most 255 bytes.
    private func lzw(_ pixels: [UInt8]) -> Data {
        let codeSize = 8
        let clear = 1 << codeSize
        let end = clear + 1
        let bits = codeSize + 1
        var stream: [UInt8] = []
        var accumulator = 0
        var filled = 0
        func emit(_ code: Int) {
            accumulator |= code << filled
            filled += bits
            while filled >= 8 {
                stream.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                filled -= 8
            }
        }
        for pixel in pixels {
            emit(clear)
            emit(Int(pixel))
        }
        emit(end)
        if filled > 0 { stream.append(UInt8(accumulator & 0xFF)) }
        var out = Data([UInt8(codeSize)])
        var offset = 0
        while offset < stream.count {
            let count = min(255, stream.count - offset)
            out.append(UInt8(count))
            out.append(contentsOf: stream[offset..<(offset + count)])
            offset += count
        }
        out.append(0)
        return out
    }

    private func word(_ value: Int) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]) }

    /// Table flag and size bits: a table of 2^(n+1) entries is written as n.
    private func tableFlags(_ table: [(UInt8, UInt8, UInt8)]?) -> UInt8 {
        guard let table else { return 0 }
        var n: UInt8 = 0
        while (2 << n) < table.count { n += 1 }
        return 0x80 | n
    }

    private func table(_ table: [(UInt8, UInt8, UInt8)]?) -> Data {
        guard let table else { return Data() }
        var n = 0
        while (2 << n) < table.count { n += 1 }
        var out = Data()
        for index in 0..<(2 << n) {
            let color = index < table.count ? table[index] : (0, 0, 0)
            out.append(contentsOf: [color.0, color.1, color.2])
        }
        return out
    }
}
