// Decodes a small RGBA PNG and checks every pixel: the decoding module works in an app
// that depends on nothing else. The PNG is written here, its image data in zlib's
// "stored" blocks, so that no encoder module is needed.
import Foundation
import WebImageCore
import WebImageDecoding

let width = 5
let height = 3
func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    [UInt8(x * 50), UInt8(y * 80), UInt8(255 - x * 20), UInt8(128 + y * 40)]
}

/// CRC-32 (PNG's chunk checksum), bit by bit: the file is tiny.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

// Each row: filter type 0, then the samples.
let raw: [UInt8] = (0..<height).flatMap { (y: Int) -> [UInt8] in [0] + (0..<width).flatMap { x in pixel(x, y) } }
// A zlib stream of one stored block: header, BFINAL=1 BTYPE=00, LEN and NLEN, the bytes, Adler-32.
var adlerA: UInt32 = 1
var adlerB: UInt32 = 0
for byte in raw {
    adlerA = (adlerA + UInt32(byte)) % 65_521
    adlerB = (adlerB + adlerA) % 65_521
}
let length = UInt16(raw.count)
var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8)]
zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
zlib += raw
zlib += bigEndian(adlerB << 16 | adlerA)
let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
file += chunk("IHDR", header)
file += chunk("IDAT", zlib)
file += chunk("IEND", [])
let png = Data(file)

let decoded = try PNGDecoder().decode(png, options: DecodeOptions())

guard decoded.format == .png, decoded.size == PixelSize(width: width, height: height) else {
    print("DecodingConsumer: decoded \(decoded.format) \(decoded.size), expected png \(width)x\(height)")
    exit(1)
}
let expected = (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
guard decoded.bitmap.packedBytes == expected else {
    print("DecodingConsumer: the pixels differ from those written")
    exit(1)
}
print("DecodingConsumer: \(png.count)-byte PNG decoded to \(decoded.size), every pixel as written")
