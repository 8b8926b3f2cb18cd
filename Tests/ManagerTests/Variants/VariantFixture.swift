import Foundation
import Synchronization
@_spi(Tooling) import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

/// What the stored-variant tests share: a manager that stores variants on the fixture's
/// folder, and sources served fresh for ten minutes.
extension Fixture {
    /// A manager on the fixture's folder that stores variants with `encoder` (PNG by
    /// default), with `decoders`.
    func variantStoringManager(
        decoders: CountingDecoders, encoder: any ImageEncoding = PNGEncoder(compression: .fast)
    ) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        configuration.manager.variantStorage = VariantStorage(encoder: encoder, encoderIdentifier: "png-fast")
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

/// A PNG encoder that holds each encode until the test releases it: proof that what
/// waits for it (or does not) does so.
final class HeldEncoder: ImageEncoding {
    private let released = DispatchSemaphore(value: 0)
    private let counts = Locked((started: 0, finished: 0, thread: String?.none))
    /// Signalled as an encode starts.
    let started = EventSignal()

    var format: ImageFormat { .png }

    var startedCount: Int { counts.withLock { $0.started } }
    var finishedCount: Int { counts.withLock { $0.finished } }
    /// The name of the thread the last encode ran on.
    var threadName: String? { counts.withLock { $0.thread } }

    func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        let thread = ThreadNames.current()
        counts.withLock {
            $0.started += 1
            $0.thread = thread
        }
        started.signal()
        released.wait()
        defer { counts.withLock { $0.finished += 1 } }
        return try PNGEncoder(compression: .fast).encode(bitmap)
    }

    /// Lets one held encode go on.
    func release() {
        released.signal()
    }
}
