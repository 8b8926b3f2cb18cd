import Foundation
import Synchronization
import Testing
@_spi(Tooling) import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// The default composition (libcurl transport, downloader, both registries, memory and
/// disk caches, the manager) with its parts kept, so that a test can look inside after a
/// fault: nothing still running, nobody still subscribed, nothing wrong cached.
final class InspectablePipeline: Sendable {
    let manager: ImageManager
    let downloader: ImageDownloader
    let downloads: DefaultComposition.DownloadRegistry
    let loads: DefaultComposition.LoadRegistry
    let disk: DiskCache?
    /// What the manager reported through `cacheStoreFailureHandler`.
    let storeFailures = StoreFailureLog()
    /// Signalled as each download ends, once the downloader has let go of it.
    private let downloadEnded = EventSignal()

    /// - Parameter change: edits the configuration before anything is built (transport
    ///   trust policy, timeouts, body limit, cache directory).
    init(cacheDirectory: URL?, _ change: (inout WebImageConfiguration) -> Void = { _ in }) {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        change(&configuration)
        let failures = storeFailures
        configuration.manager.cacheStoreFailureHandler = { error, _ in failures.record(error) }
        let parts = DefaultComposition(configuration: configuration)
        downloader = parts.downloader
        downloads = parts.downloadRegistry
        loads = parts.loadRegistry
        disk = parts.diskCache
        manager = ImageManager(parts)
        downloader.addEventMonitor(DownloadEndSignal(ended: downloadEnded), delivery: .immediate)
    }

    /// Loads `request` and returns how it ended.
    func load(_ request: ImageRequest) async -> Result<ImageResponse, ImageLoadError> {
        do { return .success(try await manager.response(for: request)) } catch { return .failure(error) }
    }

    /// The error of a load that must fail; records an issue when it succeeds.
    func failure(_ request: ImageRequest, sourceLocation: SourceLocation = #_sourceLocation) async -> ImageLoadError? {
        let result = await load(request)
        if case .success(let response) = result {
            Issue.record("expected a failure, got an image from \(response.source)", sourceLocation: sourceLocation)
        }
        return result.error
    }

    /// After a fault: no download running or queued, no subscriber left in either
    /// registry, and neither cache holding anything for `request`.
    func expectNothingLeft(after request: ImageRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // A download the failed load stopped may end just after the load's caller heard
        // the result; each end is reported once the downloader let go of the download (its
        // slot, its record, its subscribers). The limit only bounds a leak's wait.
        let quiet = await downloadEnded.wait(upTo: .seconds(10)) {
            downloader.activeDownloadCount == 0 && downloader.currentDownloadCount == 0
                && downloads.keyCount == 0 && loads.keyCount == 0
        }
        #expect(
            quiet, "left: \(downloader.activeDownloadCount) downloads, \(downloads.keyCount) download keys, \(loads.keyCount) load keys",
            sourceLocation: sourceLocation)
        #expect(manager.cachedImage(for: request) == nil, "nothing in memory", sourceLocation: sourceLocation)
        await manager.flushPendingWrites()
        if let disk {
            #expect(await disk.response(forKey: request.dataKey) == nil, "nothing on disk", sourceLocation: sourceLocation)
        }
    }
}

/// Signals each download's end: the downloader reports it after it freed the download's
/// slot, forgot its record and completed its subscribers.
private struct DownloadEndSignal: DownloadEventMonitor {
    let ended: EventSignal

    func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
        ended.signal()
    }
}

/// The disk cache's failed writes, as the manager reports them.
final class StoreFailureLog: Sendable {
    private let errors = Locked<[CacheError]>([])
    func record(_ error: CacheError) { errors.withLock { $0.append(error) } }
    var all: [CacheError] { errors.withLock { $0 } }
}

/// The download error under a load error, for matching transport codes.
extension ImageLoadError {
    var transport: TransportError? {
        if case .download(.transport(let error)) = self { return error }
        return nil
    }

    var decoding: ImageDecodingError? {
        if case .decoding(let error, _, _) = self { return error }
        return nil
    }
}

/// A URL of `server` with `target` (another URL) percent-encoded into its query, for
/// the server's `/redirect-to?url=` route.
func redirect(from server: LoopbackServer, to target: URL) -> URL {
    server.url("/redirect-to?url=" + target.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
}

/// The shape of most fault tests: serve the images, load `path` (a route of the test
/// server) through a new pipeline, let `check` look at the error, then check that the
/// fault left nothing behind.
func expectFault(
    at path: String, context: ImageLoadContext = .init(), server: LoopbackServer.Configuration = .init(),
    sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout WebImageConfiguration) -> Void = { _ in },
    _ check: (ImageLoadError?, InspectablePipeline, ServedImages) throws -> Void
) async throws {
    try await withServedImages(server) { served in
        let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory, configure)
        let request = ImageRequest(url: served.server.url(path), context: context)
        let error = await pipeline.failure(request, sourceLocation: sourceLocation)
        try check(error, pipeline, served)
        try await pipeline.expectNothingLeft(after: request, sourceLocation: sourceLocation)
    }
}
