import Foundation
import Testing
import WebImageCore

@Suite("Image format sniffing")
struct ImageFormatSniffingTests {
    @Test(
        "recognises each format from its signature",
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], ImageFormat.png),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], .jpeg),
            (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
            (Array("GIF87a".utf8) + [1, 0, 1, 0], .gif),
            (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
            ([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), .heic),
            ([0, 0, 0, 28] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8), .avif),
            ([0, 0, 0, 28] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1avifmiaf".utf8), .avif),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 20), .bmp),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
        ] as [([UInt8], ImageFormat)])
    func recognises(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(bytes) == format)
        #expect(ImageFormat.sniff(Data(bytes)) == format)
        // Slices that start past 0, and bytes that are not contiguous.
        #expect(ImageFormat.sniff(([7, 7] + bytes)[2...]) == format)
        #expect(ImageFormat.sniff(Data([7, 7] + bytes).dropFirst(2)) == format)
        #expect(ImageFormat.sniff(bytes.lazy.map { $0 }) == format)
    }

    @Test(
        "returns nil for unknown or too-short data",
        arguments: [
            [], [0x89, 0x50], [0xFF, 0xD8], Array("GIF8".utf8), Array("<html>".utf8),
            [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isomiso2".utf8),
        ] as [[UInt8]])
    func unknown(bytes: [UInt8]) {
        #expect(ImageFormat.sniff(bytes) == nil)
        #expect(ImageFormat.sniff(bytes.lazy.map { $0 }) == nil)
    }

    @Test("formats compare by identifier and carry their media type")
    func identity() {
        #expect(ImageFormat("png", mimeType: "image/x-png") == .png)
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
        #expect(Set(ImageFormat.recognised).count == 8)
    }
}
