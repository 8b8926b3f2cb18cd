import Foundation
import Synchronization
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// A downloader whose downloads the test answers by hand, for the manager's own logic:
/// no network, no transport, no clock. Every call of `download` is one ``Download``
/// (no coalescing here: the test sees each time the manager asks), recorded with its
/// request and key; the test waits for it (``download(at:)``) and then decides when it
/// reports progress, partial images and its result. The integration tests use the real
/// downloader against the loopback server.
final class ScriptedDownloader: ImageDownloading {
    /// What a download ends with.
    enum Reply: Sendable {
        /// A 200 with this body.
        case body(Data, headers: HTTPHeaderFields = [:])
        /// A 304 to a conditional request: no body.
        case notModified(headers: HTTPHeaderFields = [:])
        /// An HTTP status of 400 or more, as the real downloader reports one.
        case status(Int)
        /// A transfer failure with no response (a reset, a timeout).
        case failure(TransportError.Code)
    }

    private let state = Locked<[Download]>([])
    private let asked = AsyncStream<Void>.makeStream()
    private let autoReply: (@Sendable (DownloadRequest) -> Reply?)?

    /// - Parameter autoReply: answers a download as it is asked for (on the asking
    ///   thread, before `download` returns) when it returns a reply; `nil` leaves it to
    ///   the test.
    init(autoReply: (@Sendable (DownloadRequest) -> Reply?)? = nil) {
        self.autoReply = autoReply
    }

    /// A downloader that answers at once with the body named by the URL's last path
    /// component, fresh for an hour (`Cache-Control: max-age=3600`), and 404 for any
    /// other name.
    static func serving(_ files: [String: Data]) -> ScriptedDownloader {
        ScriptedDownloader { request in
            files[request.url.lastPathComponent].map { .body($0, headers: ["Cache-Control": "max-age=3600"]) } ?? .status(404)
        }
    }

    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        download(request, delivery: delivery, tokenReady: { _ in }, handler: handler)
    }

    /// As the real downloader: the token is ready before the test can see the download.
    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        let (download, token) = state.withLock { downloads in
            let running = downloads.count { !$0.isCompleted } + 1
            let download = Download(
                request: request, number: downloads.count, running: running, delivery: delivery, handler: handler)
            downloads.append(download)
            let token = DownloadToken(
                key: download.key, subscription: SubscriptionToken(id: UInt64(download.number)),
                onCancel: { download.cancel() }, onPauseChange: { download.isPaused = $0 })
            return (download, token)
        }
        // Outside the lock: a subscriber may cancel from here, and its completion may
        // start another download.
        tokenReady(token)
        asked.continuation.yield()
        if let reply = autoReply?(request) { download.reply(reply) }
        return token
    }

    // MARK: What the manager asked

    /// Every download asked for so far, in order.
    var downloads: [Download] { state.withLock { $0 } }
    var keys: [DownloadKey] { downloads.map(\.key) }
    var cancelledCount: Int { downloads.filter(\.isCancelled).count }

    /// The `index`th download (from 0), once the manager has asked for it. (One task at a
    /// time may wait: the signal is one stream.) Throws `CancellationError` when the test
    /// is cancelled first (its time limit), so that it ends rather than waits.
    func download(at index: Int) async throws -> Download {
        try await waitForDownloads(index + 1)[index]
    }

    /// The first `count` downloads, once the manager has asked for that many.
    @discardableResult
    func waitForDownloads(_ count: Int) async throws -> [Download] {
        await asked.stream.wait { downloads.count >= count }
        try Task.checkCancellation()
        return Array(downloads.prefix(count))
    }
}

extension ScriptedDownloader {
    /// One subscriber's download, driven by the test. Events after the result (or after
    /// a cancel) are dropped, as the real downloader never sends them.
    final class Download: Sendable, CustomStringConvertible {
        let request: DownloadRequest
        let key: DownloadKey
        /// Its place among the downloads asked for, from 0.
        let number: Int
        /// How many downloads had not completed when it was asked for, itself included.
        let running: Int
        private let delivery: CallbackDelivery
        private let handler: @Sendable (DownloadEvent) -> Void
        private let state = Locked<(isCompleted: Bool, isCancelled: Bool)>((false, false))
        private let cancelled = AsyncStream<Void>.makeStream()
        private let paused = Atomic(false)

        fileprivate init(
            request: DownloadRequest, number: Int, running: Int, delivery: CallbackDelivery,
            handler: @escaping @Sendable (DownloadEvent) -> Void
        ) {
            self.request = request
            self.number = number
            self.running = running
            self.delivery = delivery
            self.handler = handler
            // As the real downloader keys it, so tests can tell which downloads could share.
            self.key = DownloadKey(
                url: request.url, headers: request.headers, credential: request.credential, validators: request.validators,
                allowsInvalidCertificates: request.options.contains(.allowInvalidCertificates),
                isProgressive: request.options.contains(.progressive))
        }

        /// Whether the subscriber cancelled it (before it completed).
        var isCancelled: Bool { state.withLock { $0.isCancelled } }
        /// Whether it has sent its result (a cancellation included).
        var isCompleted: Bool { state.withLock { $0.isCompleted } }

        /// Whether the subscriber's last word was a pause (the fake sends events all the same).
        var isPaused: Bool {
            get { paused.load(ordering: .sequentiallyConsistent) }
            set { paused.store(newValue, ordering: .sequentiallyConsistent) }
        }

        /// Returns once the subscriber has cancelled (at once if it already has). For one
        /// waiting test task.
        func cancellation() async {
            for await _ in cancelled.stream { return }
        }

        func progress(received: Int64, expected: Int64?) {
            send(.progress(received: received, expected: expected))
        }

        /// Hands out the body received so far, as a progressive download does.
        func received(_ body: Data, attempt: Int = 1) {
            send(.partial(ReceivedBody(bytes: body, attempt: attempt)))
        }

        /// Ends the download with `reply`.
        func reply(_ reply: Reply) {
            let url = request.url
            let result: Result<DownloadResult, DownloadError>
            switch reply {
            case .body(let data, let headers):
                let response = TransportResponse(url: url, statusCode: 200, headers: headers, httpVersion: .http1_1)
                result = .success(DownloadResult(data: data, response: response, metrics: Self.metrics, attempts: 1))
            case .notModified(let headers):
                let response = TransportResponse(url: url, statusCode: 304, headers: headers, httpVersion: .http1_1)
                result = .success(DownloadResult(data: Data(), response: response, metrics: Self.metrics, attempts: 1))
            case .status(let status):
                let response = TransportResponse(url: url, statusCode: status, headers: [:], httpVersion: .http1_1)
                result = .failure(.transport(TransportError(.httpStatus, "status \(status)", url: url, response: response)))
            case .failure(let code):
                result = .failure(.transport(TransportError(code, "scripted", url: url)))
            }
            complete(result)
        }

        fileprivate func cancel() {
            let first = state.withLock { state -> Bool in
                guard !state.isCompleted else { return false }
                state = (isCompleted: true, isCancelled: true)
                return true
            }
            guard first else { return }
            cancelled.continuation.yield()
            cancelled.continuation.finish()
            deliver(.completed(.failure(.cancelled)))
        }

        private func complete(_ result: Result<DownloadResult, DownloadError>) {
            let first = state.withLock { state -> Bool in
                defer { state.isCompleted = true }
                return !state.isCompleted
            }
            if first { deliver(.completed(result)) }
        }

        private func send(_ event: DownloadEvent) {
            guard !isCompleted else { return }
            deliver(event)
        }

        private func deliver(_ event: DownloadEvent) {
            delivery.run { [handler] in handler(event) }
        }

        private static let metrics = TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)

        var description: String { "Download #\(number) \(key)" }
    }
}
