import Foundation
import WebImageCore
import WebImageTestSupport

/// 16-bit PNGs written by hand (the encoder writes 8 bits): RGBA or gray, plain or
/// Adam7, still or animated, the image data in stored (uncompressed) deflate blocks.
enum PNG16Writer {
    /// Adam7's passes: first column and row, then the steps between them.
    private static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// One frame of an animation: its place on the canvas and its RGBA samples.
    struct Frame {
        var x = 0
        var y = 0
        var width: Int
        var height: Int
        var samples: [UInt16]
        /// APNG's blend operation: 0 replaces what the frame covers, 1 draws over it.
        var blend: UInt8 = 0
    }

    /// A still RGBA file.
    static func png(width: Int, height: Int, samples: [UInt16], interlaced: Bool, profile: ColorProfile?) -> Data {
        png(width: width, height: height, channels: 4, samples: samples, interlaced: interlaced, profile: profile)
    }

    /// A still file of `channels` samples a pixel: 1 gray, 2 gray and alpha, 3 RGB, 4 RGBA.
    static func png(width: Int, height: Int, channels: Int, samples: [UInt16], interlaced: Bool, profile: ColorProfile?) -> Data {
        var file = header(width: width, height: height, channels: channels, interlaced: interlaced, profile: profile)
        file += PNGChunks.chunk("IDAT", PNGColorChunkWriter.zlibStored(scanlines(width, height, channels, samples, interlaced)))
        file += PNGChunks.chunk("IEND", [])
        return Data(file)
    }

    /// An animated RGBA file on a `width` by `height` canvas, playing forever; the first
    /// frame is the default image (in IDAT) and must cover the canvas.
    static func apng(width: Int, height: Int, frames: [Frame], interlaced: Bool, profile: ColorProfile?) -> Data {
        var file = header(width: width, height: height, channels: 4, interlaced: interlaced, profile: profile)
        file += PNGChunks.chunk("acTL", bigEndian(frames.count) + bigEndian(0))
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            let control =
                bigEndian(sequence) + bigEndian(frame.width) + bigEndian(frame.height) + bigEndian(frame.x) + bigEndian(frame.y)
                + [0, 1, 0, 10, 0, frame.blend]
            file += PNGChunks.chunk("fcTL", control)
            sequence += 1
            let data = PNGColorChunkWriter.zlibStored(scanlines(frame.width, frame.height, 4, frame.samples, interlaced))
            if index == 0 {
                file += PNGChunks.chunk("IDAT", data)
            } else {
                file += PNGChunks.chunk("fdAT", bigEndian(sequence) + data)
                sequence += 1
            }
        }
        file += PNGChunks.chunk("IEND", [])
        return Data(file)
    }

    private static func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    private static func header(width: Int, height: Int, channels: Int, interlaced: Bool, profile: ColorProfile?) -> [UInt8] {
        let colorType: UInt8 = [0, 4, 2, 6][channels - 1]
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        file += PNGChunks.chunk("IHDR", bigEndian(width) + bigEndian(height) + [16, colorType, 0, 0, interlaced ? 1 : 0])
        if let profile { file += PNGColorChunkWriter.iCCP(name: "test", storing: profile.data) }
        return file
    }

    /// The filtered (filter "none") scanlines of the image, pass by pass when interlaced.
    private static func scanlines(_ width: Int, _ height: Int, _ channels: Int, _ samples: [UInt16], _ interlaced: Bool) -> [UInt8] {
        var scanlines: [UInt8] = []
        for (x0, y0, dx, dy) in interlaced ? adam7 : [(0, 0, 1, 1)] {
            let columns = Array(stride(from: x0, to: width, by: dx))
            guard !columns.isEmpty else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                scanlines.append(0)
                for x in columns {
                    let first = (y * width + x) * channels
                    for sample in samples[first..<(first + channels)] { scanlines += [UInt8(sample >> 8), UInt8(sample & 0xFF)] }
                }
            }
        }
        return scanlines
    }
}
