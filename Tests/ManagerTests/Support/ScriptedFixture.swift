import Foundation
import WebImage

/// Managers over one scripted downloader and one in-memory disk cache, with the real
/// decoders and a fresh memory cache each: the manager's own logic (coalescing,
/// cancellation, cache order, the failed-URL set, options) with no network, no files and
/// no clock. Each test makes its own.
struct ScriptedFixture: Sendable {
    let downloader: ScriptedDownloader
    let disk = InMemoryDataCache()

    init(_ downloader: ScriptedDownloader = ScriptedDownloader()) {
        self.downloader = downloader
    }

    /// A fixture whose downloader answers at once with the test pictures by name
    /// (`photo.jpg`, `badge.png`, `animation.gif`, `corrupt.jpg`), 404 for others.
    static func serving() -> ScriptedFixture {
        ScriptedFixture(.serving(Pictures.byName))
    }

    /// A new manager (with an empty memory cache) over the fixture's downloader and disk.
    func manager(_ change: (inout ImageManager.Configuration) -> Void = { _ in }) -> ImageManager {
        var configuration = ImageManager.Configuration()
        change(&configuration)
        return ImageManager(
            downloader: downloader, decoders: ImageDecoderRegistry.standard,
            registry: CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>(),
            memoryCache: ImageMemoryCache(), diskCache: disk, configuration: configuration)
    }

    /// A URL no network ever sees.
    func url(_ name: String) -> URL {
        URL(string: "https://images.test/\(name)")!
    }
}
