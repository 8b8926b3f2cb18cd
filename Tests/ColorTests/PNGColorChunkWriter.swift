import Foundation
import WebImageTestSupport

/// PNG colour chunks written by hand, for what an encoder would not write.
enum PNGColorChunkWriter {
    /// An `iCCP` chunk holding `profile` in a zlib stream of stored (uncompressed) blocks.
    static func iCCP(name: String, storing profile: Data) -> [UInt8] {
        PNGChunks.chunk("iCCP", Array(name.utf8) + [0, 0] + zlibStored(Array(profile)))
    }

    /// `png` with `chunk` right after IHDR (8 + 25 bytes in).
    static func insertAfterIHDR(_ chunk: [UInt8], into png: Data) -> Data {
        var out = Data(png.prefix(33))
        out.append(contentsOf: chunk)
        out.append(png.dropFirst(33))
        return out
    }

    /// `bytes` as a zlib stream of stored (uncompressed) blocks.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = end - start
            out += [
                end == bytes.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
    }
}
