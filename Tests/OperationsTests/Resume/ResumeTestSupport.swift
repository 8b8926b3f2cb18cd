import Foundation
import Synchronization
import WebImageCallbackRegistry
import WebImageOperations
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

/// The bytes `/range/<name>` serves: byte i = (i + version) % 251.
func rangePattern(_ count: Int, version: Int = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 + version) % 251) })
}

/// A quick retry policy: one retry after a few milliseconds (the tests assert on
/// requests and bytes, never on times).
let oneQuickRetry = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(5), jitter: 0)

extension LoopbackServer {
    /// The requests that asked for a range.
    var rangeRequests: [RecordedRequest] { requests.filter { $0.header("range") != nil } }
}

/// A downloader on the real transport with a partial-download store in a fresh directory.
struct ResumingDownloader {
    let directory: TemporaryDirectory
    let store: PartialDownloadStore
    let monitor = LifecycleMonitor()
    let downloader: ImageDownloader

    /// `waitsForCancel`: no stall or whole-transfer timeout, so that a test's cancel, not
    /// a timer, ends a stalled transfer however slowly a loaded run reaches it.
    init(retryPolicy: RetryPolicy = .none, storeDirectory: URL? = nil, waitsForCancel: Bool = false) throws {
        directory = try TemporaryDirectory()
        store = PartialDownloadStore(directory: storeDirectory ?? directory.url.appendingPathComponent("partial"))
        let patient: RequestModifier = { request in
            var request = request
            request.timeouts.stall = nil
            request.timeouts.total = nil
            return request
        }
        downloader = ImageDownloader(
            transport: CurlTransport(), registry: DownloadRegistry(),
            configuration: .init(
                retryPolicy: retryPolicy, requestModifier: waitsForCancel ? patient : nil, eventMonitor: monitor, partialDownloads: store))
    }

    /// Downloads `url` to its result.
    func result(_ url: URL, timeout: Duration? = nil) async -> Result<DownloadResult, DownloadError> {
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url, timeout: timeout), handler: log.handler)
        return await log.result()
    }
}

/// Waits until a download's progress reaches `bytes`, or it completes first (then the
/// test fails on its own checks rather than hanging).
final class ProgressWaiter: Sendable {
    private let stream = AsyncStream<Int64>.makeStream()

    var handler: @Sendable (DownloadEvent) -> Void {
        { [stream] event in
            switch event {
            case .progress(let received, _): stream.continuation.yield(received)
            case .completed:
                stream.continuation.yield(-1)
                stream.continuation.finish()
            case .partial: break
            }
        }
    }

    /// `true` when the progress reached `bytes`, `false` when the download completed first.
    func reached(_ bytes: Int64) async -> Bool {
        for await received in stream.stream {
            if received < 0 { return false }
            if received >= bytes { return true }
        }
        return false
    }
}
