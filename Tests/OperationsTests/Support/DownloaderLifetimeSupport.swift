import Synchronization
import Testing
import WebImageCore

@testable import WebImageConcurrency
@testable import WebImageOperations

/// An event monitor for one downloader that says when it is freed. The downloader's
/// context holds its monitors, and every operation holds the context, so the monitor goes
/// when the last of them lets go (and its events already sent have run).
final class FreedSignal: Sendable {
    private let freed = AsyncStream<Void>.makeStream()

    private final class Monitor: DownloadEventMonitor {
        let freed: AsyncStream<Void>.Continuation
        init(freed: AsyncStream<Void>.Continuation) { self.freed = freed }
        deinit { freed.finish() }
    }

    /// The monitor to configure the downloader with; keep no reference to it.
    func monitor() -> any DownloadEventMonitor { Monitor(freed: freed.continuation) }

    /// Returns once the monitor is freed (or the task is cancelled: a time limit).
    func wait() async {
        for await _ in freed.stream {}
    }
}

/// Weak references to a downloader and the parts it is made of: its queue, its context,
/// and the operations it has when this is made.
struct DownloaderParts {
    struct WeakOperation {
        weak var operation: DownloadOperation?
    }

    weak var downloader: ImageDownloader?
    weak var queue: DownloadQueue?
    weak var context: DownloaderContext?
    let operations: [WeakOperation]

    init(_ downloader: ImageDownloader) {
        self.downloader = downloader
        self.queue = downloader.queue
        self.context = downloader.context
        self.operations = downloader.context.runs.all.map { WeakOperation(operation: $0) }
    }

    init() {
        operations = []
    }

    /// Expects every part to be freed.
    func expectFreed(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(downloader == nil, "the downloader", sourceLocation: sourceLocation)
        #expect(queue == nil, "the queue", sourceLocation: sourceLocation)
        #expect(context == nil, "the context", sourceLocation: sourceLocation)
        #expect(operations.allSatisfy { $0.operation == nil }, "every operation", sourceLocation: sourceLocation)
    }
}
