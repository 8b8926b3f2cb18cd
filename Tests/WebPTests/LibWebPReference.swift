import CLibWebP
import Foundation

/// libwebp's own decodes, the reference the tests compare with.
enum LibWebPReference {
    /// `WebPDecodeRGBA`'s pixels, packed.
    static func still(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { bytes in
            var width: Int32 = 0
            var height: Int32 = 0
            guard let pixels = WebPDecodeRGBA(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &width, &height)
            else { return [] }
            defer { WebPFree(pixels) }
            return Array(UnsafeBufferPointer(start: pixels, count: Int(width * height * 4)))
        }
    }

    /// Every canvas `WebPAnimDecoder` gives, in RGBA.
    static func frames(_ data: Data) -> [[UInt8]] {
        data.withUnsafeBytes { bytes in
            var input = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return [] }
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNew(&input, &options) else { return [] }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { return [] }
            var frames: [[UInt8]] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else { break }
                frames.append(Array(UnsafeBufferPointer(start: canvas, count: Int(info.canvas_width * info.canvas_height * 4))))
            }
            return frames
        }
    }
}
