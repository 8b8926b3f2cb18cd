import Foundation
@_spi(Tooling) import WebImage
import WebImageTestServer
import WebImageTestSupport

/// What the stored-variant tests share: a manager that stores variants on the fixture's
/// folder, and sources served fresh for ten minutes.
extension Fixture {
    /// A manager on the fixture's folder that stores variants as PNG, with `decoders`.
    func variantStoringManager(decoders: CountingDecoders) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
        let parts = DefaultComposition(configuration: configuration)
        return ImageManager(
            downloader: parts.downloader, decoders: decoders, registry: parts.loadRegistry, memoryCache: parts.memoryCache,
            diskCache: parts.diskCache, configuration: parts.managerConfiguration)
    }

    /// `file` served fresh for ten minutes, with its ETag.
    func freshURL(_ file: String = "photo.jpg") -> URL {
        server.url("/cache/\(file)?cc=max-age%3D600")
    }

    /// The requests the server has had for `file` at ``freshURL(_:)``.
    func freshHits(_ file: String = "photo.jpg") -> Int {
        server.requests.filter { $0.path == "/cache/\(file)" }.count
    }
}
