import Foundation
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

/// The images the reliability tests serve, made at test time: good ones, and hostile
/// ones that claim dimensions far over any limit while being a few hundred bytes
/// (decompression bombs), or that are damaged.
enum HostileImages {
    static let photo = try! JPEGFixtureEncoder(quality: 85).encode(SyntheticImage.photo(width: 160, height: 120))
    static let badge = try! PNGFixtureEncoder().encode(SyntheticImage.translucent(width: 40, height: 30))
    static let animation = try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 30, height: 20, frameCount: 3))

    /// A real PNG whose header says 100,000 x 100,000 (40 GB as RGBA), CRC fixed up so
    /// only the size gives it away.
    static let pngBomb: Data = {
        var bytes = [UInt8](badge)
        // IHDR's data follows the signature (8), the length (4) and the type (4).
        put(100_000, into: &bytes, at: 16, width: 4)
        put(100_000, into: &bytes, at: 20, width: 4)
        let crc = PNGChunks.crc32(Array(bytes[12..<29]))
        put(Int(crc), into: &bytes, at: 29, width: 4)
        return Data(bytes)
    }()

    /// A real JPEG whose frame header (SOF0) says 65,500 x 65,500.
    static let jpegBomb: Data = {
        var bytes = [UInt8](photo)
        guard let marker = (0..<bytes.count - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            fatalError("the fixture encoder wrote no baseline frame header")
        }
        // FFC0, length (2), precision (1), then height and width (2 each, big-endian).
        put(65_500, into: &bytes, at: marker + 5, width: 2)
        put(65_500, into: &bytes, at: marker + 7, width: 2)
        return Data(bytes)
    }()

    /// A real GIF whose logical screen is 65,535 x 65,535.
    static let gifBomb: Data = {
        var bytes = [UInt8](animation)
        // "GIF89a", then the screen width and height, little-endian.
        bytes[6] = 0xFF
        bytes[7] = 0xFF
        bytes[8] = 0xFF
        bytes[9] = 0xFF
        return Data(bytes)
    }()

    /// A real lossless WebP whose header says 16,000 x 16,000 (WebP's sides stop at 16,384).
    static let webpBomb = DecompressionBombs.webp(
        try! WebPFixtureEncoder(lossless: true).encode(SyntheticImage.photo(width: 48, height: 32)), width: 16_000, height: 16_000)!

    /// A real AVIF whose spatial extents (`ispe`) say 60,000 x 60,000.
    static let avifBomb = DecompressionBombs.avif(
        try! AVIFEncoder(quality: 40, speed: 10).encode(SyntheticImage.photo(width: 32, height: 24)), width: 60_000, height: 60_000)!

    /// A JPEG header followed by noise: sniffs as JPEG, does not decode.
    static let corrupt = DamagedImages.jpegHeaderThenNoise(photo)

    /// Every file, by the name it is served under.
    static let served: [String: Data] = [
        "photo.jpg": photo, "badge.png": badge, "animation.gif": animation,
        "bomb.png": pngBomb, "bomb.jpg": jpegBomb, "bomb.gif": gifBomb, "bomb.webp": webpBomb,
        "bomb.avif": avifBomb, "corrupt.jpg": corrupt,
    ]

    private static func put(_ value: Int, into bytes: inout [UInt8], at offset: Int, width: Int) {
        for index in 0..<width {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - index)))
        }
    }
}

/// A folder of ``HostileImages`` served on loopback, and a cache folder for the
/// pipeline; both removed when the test ends.
struct ServedImages: Sendable {
    let server: LoopbackServer
    let cacheDirectory: URL

    func url(_ name: String) -> URL { server.url("/files/\(name)") }
    func hits(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }
}

func withServedImages<R>(
    _ configuration: LoopbackServer.Configuration = .init(), _ body: (ServedImages) async throws -> R
) async throws -> R {
    let root = try TemporaryDirectory()
    let cache = try TemporaryDirectory()
    for (name, data) in HostileImages.served { try data.write(to: root.url.appendingPathComponent(name)) }
    var configuration = configuration
    configuration.documentRoot = root.url
    defer { withExtendedLifetime((root, cache)) {} }
    return try await LoopbackServer.withServer(configuration) { server in
        try await body(ServedImages(server: server, cacheDirectory: cache.url))
    }
}
