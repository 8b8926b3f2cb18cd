import Foundation
import Synchronization
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

/// A load's image as a file, through the umbrella's manager against the loopback server:
/// a JPEG thumbnail of a JPEG made in YCbCr from the source's bytes, every other load
/// decoded and encoded, and the same image either way.
@Suite("Manager against the loopback server: encoded images", .timeLimit(.minutes(1)))
struct EncodedImageTests {
    static let photo = try! JPEGFixtureEncoder(quality: 90).encode(SyntheticImage.photo(width: 640, height: 480, seed: 5))
    static let turned = try! JPEGFixtureEncoder(quality: 90, exifOrientation: .right).encode(SyntheticImage.photo(width: 64, height: 48))
    static let displayP3 = try! JPEGEncoder(
        quality: 90,
        colorProfile: ColorProfile.stated(
            white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), transfer: .sRGB,
            origin: "Display P3")
    ).encode(SyntheticImage.photo(width: 64, height: 48))
    static let files: [String: Data] = [
        "photo.jpg": photo, "turned.jpg": turned, "p3.jpg": displayP3, "badge.png": Pictures.badge, "corrupt.jpg": Pictures.corrupt,
    ]

    static func thumbnail(_ url: URL, transformers: [any ImageTransforming] = []) -> ImageRequest {
        ImageRequest(url: url, context: ImageLoadContext(thumbnailPixelSize: 160, transformers: transformers))
    }

    /// Runs `body` with ``files`` served and a fresh cache folder.
    func withServed(_ body: (LoopbackServer, URL) async throws -> Void) async throws {
        let root = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        for (name, data) in Self.files { try data.write(to: root.url.appendingPathComponent(name)) }
        defer { withExtendedLifetime((root, cache)) {} }
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in try await body(server, cache.url) }
    }

    func manager(_ cache: URL, _ change: (inout WebImageConfiguration) -> Void = { _ in }) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: cache)
        change(&configuration)
        return ImageManager(configuration: configuration)
    }

    @Test("a JPEG thumbnail of a JPEG is transcoded from the source's bytes: the size and pixels of the decoded load's")
    func transcodesAJPEGThumbnail() async throws {
        try await withServed { server, cache in
            let request = Self.thumbnail(server.url("/files/photo.jpg"))
            let encoded = try await manager(cache).encodedImage(for: request, encoder: JPEGEncoder(quality: 85))
            #expect(encoded.path == .transcoded)
            #expect(encoded.source == .network)
            #expect(encoded.format == .jpeg)
            #expect(encoded.size == PixelSize(width: 160, height: 120))
            let decoded = try JPEGDecoder().decode(encoded.data)
            #expect(decoded.size == encoded.size)
            let image = try await manager(cache).image(for: request)
            #expect(image.size == encoded.size)
            let psnr = PixelComparison.psnr(Self.rgb(decoded.bitmap), Self.rgb(image.bitmap))
            #expect(psnr >= 30, "\(psnr) dB against the decoded load")
        }
    }

    @Test("without transcoders the same JPEG is decoded and encoded: the encoder's bytes of the decoded load's image")
    func withoutTranscoders() async throws {
        try await withServed { server, cache in
            let request = Self.thumbnail(server.url("/files/photo.jpg"))
            let encoded = try await manager(cache) { $0.manager.transcoders = [] }.encodedImage(for: request, encoder: JPEGEncoder())
            #expect(encoded.path == .encoded)
            let image = try await manager(cache).image(for: request)
            #expect(encoded.data == (try JPEGEncoder().encode(image.bitmap)))
        }
    }

    @Test(
        "what the transcoder declines is decoded and encoded: the encoder's bytes of the image image(for:) gives",
        arguments: [
            ("badge.png", PixelSize(width: 64, height: 48)), ("turned.jpg", PixelSize(width: 48, height: 64)),
            ("p3.jpg", PixelSize(width: 64, height: 48)),
        ])
    func declinedSourcesAreDecoded(file: String, size: PixelSize) async throws {
        try await withServed { server, cache in
            let request = Self.thumbnail(server.url("/files/\(file)"))
            let encoded = try await manager(cache).encodedImage(for: request, encoder: JPEGEncoder())
            #expect(encoded.path == .encoded)
            #expect(encoded.source == .network)
            #expect(encoded.size == size)
            #expect(server.requests.count { $0.path == "/files/\(file)" } == 1, "the bytes are loaded once, then decoded")
            let image = try await manager(cache).image(for: request)
            #expect(encoded.data == (try JPEGEncoder().encode(image.bitmap)))
        }
    }

    @Test("a load with transformers is loaded as image(for:) loads it, then encoded")
    func transformers() async throws {
        try await withServed { server, cache in
            let request = Self.thumbnail(
                server.url("/files/photo.jpg"), transformers: [ResizeTransformer(width: 50, height: 50, mode: .fill)])
            let encoded = try await manager(cache).encodedImage(for: request, encoder: PNGEncoder())
            #expect(encoded.path == .encoded)
            #expect(encoded.format == .png)
            #expect(encoded.size == PixelSize(width: 50, height: 50))
            let image = try await manager(cache).image(for: request)
            #expect(encoded.data == (try PNGEncoder().encode(image.bitmap)))
        }
    }

    @Test("the transcoders are asked in order, each once: the first that answers makes the file, the rest are not asked")
    func transcodersInOrder() async throws {
        try await withServed { server, cache in
            let declining = CountingTranscoder(answers: false)
            let answering = CountingTranscoder(answers: true)
            let after = CountingTranscoder(answers: true)
            let manager = manager(cache) { $0.manager.transcoders = [declining, answering, after] }
            let encoded = try await manager.encodedImage(for: Self.thumbnail(server.url("/files/badge.png")), encoder: PNGEncoder())
            #expect(encoded.path == .transcoded)
            #expect(encoded.data == Data("made by a transcoder".utf8))
            #expect(declining.calls == 1)
            #expect(answering.calls == 1, "once: the file is the one it made")
            #expect(after.calls == 0)
        }
    }

    @Test("a decoded image the memory cache holds is encoded, with no second request")
    func memoryHit() async throws {
        try await withServed { server, cache in
            let manager = manager(cache)
            let request = Self.thumbnail(server.url("/files/photo.jpg"))
            let image = try await manager.image(for: request)
            let encoded = try await manager.encodedImage(for: request, encoder: JPEGEncoder())
            #expect(encoded.source == .memory)
            #expect(encoded.path == .encoded)
            #expect(encoded.data == (try JPEGEncoder().encode(image.bitmap)))
            #expect(server.requests.count { $0.path == "/files/photo.jpg" } == 1)
        }
    }

    @Test("a corrupt JPEG fails with the decoder's error, whichever path it took")
    func corrupt() async throws {
        try await withServed { server, cache in
            let request = Self.thumbnail(server.url("/files/corrupt.jpg"))
            await #expect {
                _ = try await manager(cache).encodedImage(for: request, encoder: JPEGEncoder())
            } throws: { error in
                guard case .decoding = error as? ImageLoadError else { return false }
                return true
            }
        }
    }

    @Test("the callback gives the same file; a token cancelled at once completes with cancelled")
    func callbacks() async throws {
        try await withServed { server, cache in
            let manager = manager(cache)
            let request = Self.thumbnail(server.url("/files/photo.jpg"))
            let result = await withCheckedContinuation { continuation in
                manager.loadEncodedImage(with: request, encoder: JPEGEncoder()) { continuation.resume(returning: $0) }
            }
            let delivered = try result.get()
            #expect(delivered.path == .transcoded)
            let again = try await manager.encodedImage(for: request, encoder: JPEGEncoder())
            #expect(delivered.data == again.data)
            let cancelled = await withCheckedContinuation { continuation in
                let token = manager.loadEncodedImage(with: Self.thumbnail(server.url("/files/badge.png")), encoder: JPEGEncoder()) {
                    continuation.resume(returning: $0)
                }
                token.cancel()
            }
            #expect(cancelled.error?.isCancelled == true, "\(cancelled)")
        }
    }

    static func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        bitmap.packedBytes.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
    }
}

/// A transcoder that counts the times it is asked and answers with a fixed file, or
/// declines.
final class CountingTranscoder: ImageTranscoding {
    let answers: Bool
    private let count = Locked(0)

    init(answers: Bool) { self.answers = answers }

    var calls: Int { count.withLock { $0 } }

    func transcode(_ source: Data, options: DecodeOptions, encoder: any ImageEncoding) -> TranscodedImage? {
        count.withLock { $0 += 1 }
        return answers ? TranscodedImage(data: Data("made by a transcoder".utf8), size: PixelSize(width: 1, height: 1), format: .png) : nil
    }
}
