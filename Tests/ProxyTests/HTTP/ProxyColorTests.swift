import Foundation
import Testing
import WebImage
import WebImageProxy

/// The proxy's colour: sources tagged with an ICC profile are converted to sRGB, and the
/// output carries no profile, as imgproxy does; `scp:0` keeps the source's profile.
@Suite("Image proxy colour")
struct ProxyColorTests {
    @Test("a JPEG tagged with a red/green-swapping profile comes out green and untagged, as JPEG and as PNG", arguments: ["jpg", "png"])
    func swappedProfile(ext: String) async throws {
        let swapped = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.30, 0.60), green: (0.64, 0.33), blue: (0.15, 0.06), gamma: 2.2)
        let red = try ImageBitmap(width: 64, height: 64, pixelFormat: .rgba8) { bytes, _ in
            for index in 0..<(64 * 64) { bytes.copyBytes(from: [255, 0, 0, 255], at: 4 * index) }
        }
        let source = try JPEGEncoder(quality: 95, subsampling: .s444, colorProfile: swapped).encode(red)
        try await ProxyHarness.run(files: ["tagged.jpg": source]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:32:32", origin: "/files/tagged.jpg", ext: ext))
            #expect(answer.status == 200)
            let output = try ImageDecoderRegistry.standard.decode(answer.data)
            #expect(output.sourceColorProfile == nil, "the output carries no profile")
            let pixel = Array(output.bitmap.packedBytes.prefix(4))
            #expect(pixel[0] < 60 && pixel[1] > 200, "the stored red shows green: \(pixel)")
        }
    }

    static func swappedSource() throws -> (profile: ColorProfile, file: Data) {
        let swapped = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.30, 0.60), green: (0.64, 0.33), blue: (0.15, 0.06), gamma: 2.2)
        let red = try ImageBitmap(width: 64, height: 64, pixelFormat: .rgba8) { bytes, _ in
            for index in 0..<(64 * 64) { bytes.copyBytes(from: [255, 0, 0, 255], at: 4 * index) }
        }
        return (swapped, try JPEGEncoder(quality: 95, subsampling: .s444, colorProfile: swapped).encode(red))
    }

    @Test("scp:0 keeps the source's stored pixels and writes its profile, in JPEG, PNG and WebP", arguments: ["jpg", "png", "webp"])
    func keptProfile(ext: String) async throws {
        let (swapped, source) = try Self.swappedSource()
        try await ProxyHarness.run(files: ["tagged.jpg": source]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:32:32/scp:0", origin: "/files/tagged.jpg", ext: ext))
            #expect(answer.status == 200)
            let output = try ImageDecoderRegistry.allFormats.decode(answer.data, options: DecodeOptions(color: .preserve))
            #expect(output.colorProfile == swapped, "the output carries the source's profile")
            let pixel = Array(output.bitmap.packedBytes.prefix(4))
            #expect(pixel[0] > 200 && pixel[1] < 60, "the stored red is kept: \(pixel)")
        }
    }

    @Test("a proxy that keeps profiles by default strips them again for scp:1")
    func keptByDefault() async throws {
        let (swapped, source) = try Self.swappedSource()
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.keepsColorProfile = true
        try await ProxyHarness.run(configuration: configuration, files: ["tagged.jpg": source]) { harness in
            let kept = try await harness.get(harness.path("rs:fit:32:32", origin: "/files/tagged.jpg", ext: "png"))
            let keptImage = try ImageDecoderRegistry.standard.decode(kept.data, options: DecodeOptions(color: .preserve))
            #expect(keptImage.colorProfile == swapped)
            let stripped = try await harness.get(harness.path("rs:fit:32:32/scp:1", origin: "/files/tagged.jpg", ext: "png"))
            let strippedImage = try ImageDecoderRegistry.standard.decode(stripped.data, options: DecodeOptions(color: .preserve))
            #expect(strippedImage.colorProfile == nil && strippedImage.sourceColorProfile == nil)
            let pixel = Array(strippedImage.bitmap.packedBytes.prefix(4))
            #expect(pixel[0] < 60 && pixel[1] > 200, "converted: the stored red shows green: \(pixel)")
        }
    }
}

extension UnsafeMutableRawBufferPointer {
    fileprivate func copyBytes(from bytes: [UInt8], at offset: Int) {
        UnsafeMutableRawBufferPointer(rebasing: self[offset..<(offset + bytes.count)]).copyBytes(from: bytes)
    }
}
