import Foundation
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

/// Builds APNG files for tests from RGBA frames: each frame is encoded by `PNGEncoder`,
/// and its IDAT data becomes the frame's `fdAT` (or the file's IDAT for a default-image
/// first frame).
struct APNGBuilder {
    struct Frame {
        var bitmap: ImageBitmap
        var x = 0
        var y = 0
        var delay: (numerator: UInt16, denominator: UInt16) = (1, 10)
        var dispose: UInt8 = 0
        var blend: UInt8 = 0
    }

    var width: Int
    var height: Int
    var plays: UInt32 = 0
    /// When set, the file's IDAT is this image and is not a frame (hidden default).
    var hiddenDefault: ImageBitmap?
    var frames: [Frame]

    func build() throws -> Data {
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        ihdr.append(u32(UInt32(width)))
        ihdr.append(u32(UInt32(height)))
        ihdr.append(contentsOf: [8, 6, 0, 0, 0])
        chunk("IHDR", ihdr, into: &out)
        var actl = u32(UInt32(frames.count))
        actl.append(u32(plays))
        chunk("acTL", actl, into: &out)
        var sequence: UInt32 = 0
        if let hiddenDefault { chunk("IDAT", try Self.imageData(hiddenDefault), into: &out) }
        for (index, frame) in frames.enumerated() {
            var fctl = u32(sequence)
            sequence += 1
            for value in [frame.bitmap.width, frame.bitmap.height, frame.x, frame.y] { fctl.append(u32(UInt32(value))) }
            fctl.append(contentsOf: [UInt8(frame.delay.numerator >> 8), UInt8(frame.delay.numerator & 0xFF)])
            fctl.append(contentsOf: [UInt8(frame.delay.denominator >> 8), UInt8(frame.delay.denominator & 0xFF)])
            fctl.append(contentsOf: [frame.dispose, frame.blend])
            chunk("fcTL", fctl, into: &out)
            let data = try Self.imageData(frame.bitmap)
            if index == 0 && hiddenDefault == nil {
                chunk("IDAT", data, into: &out)
            } else {
                var fdat = u32(sequence)
                sequence += 1
                fdat.append(data)
                chunk("fdAT", fdat, into: &out)
            }
        }
        chunk("IEND", Data(), into: &out)
        return out
    }

    /// The joined IDAT data of `bitmap` encoded as a PNG.
    static func imageData(_ bitmap: ImageBitmap) throws -> Data {
        let png = try PNGEncoder(compression: .fast).encode(bitmap)
        return Data(RepeatedStructures.pngChunks(in: png).filter { $0.type == "IDAT" }.flatMap(\.data))
    }

    static func solid(_ rgba: [UInt8], width: Int, height: Int) throws -> ImageBitmap {
        try SyntheticImage.solid(width: width, height: height, rgba: rgba)
    }

    private func u32(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// The fixtures' chunk writer (length, type, data, CRC-32), independent of the
    /// decoder's own CRC.
    private func chunk(_ type: String, _ data: Data, into out: inout Data) {
        out.append(contentsOf: RepeatedStructures.pngChunk(type, [UInt8](data)))
    }
}
