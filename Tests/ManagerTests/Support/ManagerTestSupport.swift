import Foundation
import Synchronization
import WebImage
@testable import WebImageCore
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport
@testable import WebImageConcurrency

/// The images every manager test serves, made by the C encoders at test time.
enum Pictures {
    static let photo = try! JPEGFixtureEncoder(quality: 90).encode(SyntheticImage.photo(width: 320, height: 240))
    static let progressivePhoto = try! JPEGFixtureEncoder(quality: 90, progressive: true)
        .encode(SyntheticImage.photo(width: 320, height: 240, seed: 7))
    static let badge = try! PNGFixtureEncoder().encode(SyntheticImage.translucent(width: 64, height: 48))
    static let animation = try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 60, height: 40, frameCount: 5))
    /// A JPEG header followed by noise: sniffs as JPEG, does not decode.
    static let corrupt = DamagedImages.jpegHeaderThenNoise(photo)
}

/// A served folder of pictures, a cache folder, and a manager over them.
/// (`withFixture` keeps the folders alive and removes them after the test.)
struct Fixture: Sendable {
    /// The served folder: `/files/<name>`.
    let root: URL
    let cacheDirectory: URL
    let server: LoopbackServer

    /// A new manager on the fixture's cache folder (a fresh memory cache each time).
    func manager(_ change: (inout WebImageConfiguration) -> Void = { _ in }) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        change(&configuration)
        return ImageManager(configuration: configuration)
    }

    func url(_ name: String, query: String = "") -> URL {
        server.url("/files/\(name)\(query.isEmpty ? "" : "?" + query)")
    }

    /// GET requests the server saw for `name`.
    func hits(_ name: String) -> Int {
        server.requests.filter { $0.path == "/files/\(name)" }.count
    }
}

/// Runs `body` with the pictures served from a fresh folder.
func withFixture<R>(_ body: (Fixture) async throws -> R) async throws -> R {
    let root = try TemporaryDirectory()
    let cache = try TemporaryDirectory()
    for (name, data) in [
        ("photo.jpg", Pictures.photo), ("progressive.jpg", Pictures.progressivePhoto), ("badge.png", Pictures.badge),
        ("animation.gif", Pictures.animation), ("corrupt.jpg", Pictures.corrupt),
    ] {
        try data.write(to: root.url.appendingPathComponent(name))
    }
    defer { withExtendedLifetime((root, cache)) {} }
    return try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
        try await body(Fixture(root: root.url, cacheDirectory: cache.url, server: server))
    }
}

/// Everything one callback load saw, in order.
final class LoadLog: Sendable {
    private let events = Locked<[ImageLoadEvent]>([])
    private let done = AsyncStream<Result<ImageResponse, ImageLoadError>>.makeStream()

    var handler: @Sendable (ImageLoadEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            if case .completed(let result) = event { done.continuation.yield(result) }
        }
    }

    func result() async -> Result<ImageResponse, ImageLoadError> {
        for await result in done.stream { return result }
        fatalError("the stream never ends without a result")
    }

    var all: [ImageLoadEvent] { events.withLock { $0 } }
    var completions: Int { all.filter(\.isCompletion).count }
    var partialImages: [DecodedImage] { all.compactMap { if case .partial(let image) = $0 { image } else { nil } } }
}



/// The result of an async throwing call, as a value to look into.
func outcome<T>(_ body: () async throws(ImageLoadError) -> T) async -> Result<T, ImageLoadError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
