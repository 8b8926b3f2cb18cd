import Foundation
import WebImageCore
import WebImageFixtures

/// Writes an animated WebP container frame by frame, each frame with its own rectangle,
/// blend and disposal: what libwebp's animation encoder chooses for itself, chosen here
/// by the test. Each frame's image is a still encoded by `WebPFixtureEncoder`, its
/// chunks moved into the frame's `ANMF` chunk.
struct WebPAnimationBuilder {
    struct Frame {
        var bitmap: ImageBitmap
        /// Even, as the container stores half the offset.
        var x = 0
        var y = 0
        var duration = 40
        var blends = true
        var disposesToBackground = false
        var lossless = true
    }

    var width: Int
    var height: Int
    var loopCount = 0
    var frames: [Frame] = []

    func build() throws -> Data {
        var body = Data("WEBP".utf8)
        var header = Data([0x12, 0, 0, 0])  // animation and alpha
        header.append(Self.uint24(width - 1))
        header.append(Self.uint24(height - 1))
        body.append(Self.chunk("VP8X", header))
        body.append(Self.chunk("ANIM", Data([0, 0, 0, 0, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)])))
        for frame in frames {
            let still = try WebPFixtureEncoder(quality: 90, lossless: frame.lossless).encode(frame.bitmap)
            var payload = Self.uint24(frame.x / 2) + Self.uint24(frame.y / 2)
            payload.append(Self.uint24(frame.bitmap.width - 1) + Self.uint24(frame.bitmap.height - 1))
            payload.append(Self.uint24(frame.duration))
            payload.append((frame.blends ? 0 : 2) | (frame.disposesToBackground ? 1 : 0))
            payload.append(Self.imageChunks(of: still))
            body.append(Self.chunk("ANMF", payload))
        }
        return Data("RIFF".utf8) + Self.uint32(body.count) + body
    }

    /// The chunks of a still file that hold its image (`ALPH`, `VP8 `, `VP8L`).
    static func imageChunks(of file: Data) -> Data {
        let bytes = [UInt8](file)
        var result = Data()
        var at = 12
        while at + 8 <= bytes.count {
            let name = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            let end = at + 8 + size + (size & 1)
            if ["ALPH", "VP8 ", "VP8L"].contains(name) { result.append(contentsOf: bytes[at..<min(end, bytes.count)]) }
            at = end
        }
        return result
    }

    static func chunk(_ name: String, _ payload: Data) -> Data {
        var chunk = Data(name.utf8) + uint32(payload.count) + payload
        if payload.count % 2 == 1 { chunk.append(0) }
        return chunk
    }

    static func uint24(_ value: Int) -> Data { Data([UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]) }

    static func uint32(_ value: Int) -> Data { uint24(value) + Data([UInt8((value >> 24) & 0xFF)]) }
}
