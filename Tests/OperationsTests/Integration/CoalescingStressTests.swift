import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageOperations
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Stress: 10,000 subscribers over 100 URLs with random cancellation")
struct CoalescingStressTests {
    /// One subscriber's fate.
    final class Subscriber: Sendable {
        let index: Int
        let cancelRequested = Atomic<Bool>(false)
        let completions = Atomic<Int>(0)
        let eventsAfterCompletion = Atomic<Int>(0)
        let outcome = Locked<Result<Int, DownloadError>?>(nil)
        init(index: Int) { self.index = index }
    }

    /// What the subscribing and cancelling threads share.
    final class Book: Sendable {
        let remaining: Atomic<Int>
        let tokens = Locked<[Int: DownloadToken]>([:])
        let done = AsyncStream<Void>.makeStream()
        init(count: Int) { remaining = Atomic(count) }
    }

    @Test("every subscriber completes exactly once; the registry, the queue and the downloader end empty")
    func stress() async throws {
        try await withServer { server in
            let registry = DownloadRegistry()
            let monitor = LifecycleMonitor()
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: registry, configuration: .init(eventMonitor: monitor))
            let subscribers = (0..<10_000).map { Subscriber(index: $0) }
            let book = Book(count: subscribers.count)

            // Several threads subscribe at once; a third of the subscribers are cancelled
            // from other threads while their downloads run.
            await withTaskGroup(of: Void.self) { group in
                for lane in 0..<4 {
                    group.addTask {
                        for subscriber in subscribers where subscriber.index % 4 == lane {
                            let url = server.url(
                                "/drip?bytes=\(1000 + subscriber.index % 100)&chunk=500&interval_ms=50&u=\(subscriber.index % 100)")
                            let token = downloader.download(DownloadRequest(url: url)) { event in
                                if subscriber.completions.load(ordering: .acquiring) > 0 {
                                    subscriber.eventsAfterCompletion.add(1, ordering: .relaxed)
                                }
                                guard case .completed(let result) = event else { return }
                                subscriber.outcome.withLock { $0 = result.map(\.data.count) }
                                subscriber.completions.add(1, ordering: .releasing)
                                if book.remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                                    book.done.continuation.yield()
                                }
                            }
                            book.tokens.withLock { $0[subscriber.index] = token }
                        }
                    }
                }
                for lane in 0..<3 {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        for subscriber in subscribers where subscriber.index % 3 == lane && Int.random(in: 0..<3, using: &generator) == 0 {
                            guard let token = book.tokens.withLock({ $0[subscriber.index] }) else { continue }
                            subscriber.cancelRequested.store(true, ordering: .releasing)
                            token.cancel()
                        }
                    }
                }
            }
            if book.remaining.load(ordering: .acquiring) > 0 { for await _ in book.done.stream { break } }

            var cancelledByUs = 0
            var lostRace = 0
            for subscriber in subscribers {
                #expect(subscriber.completions.load(ordering: .acquiring) == 1, "subscriber \(subscriber.index)")
                #expect(subscriber.eventsAfterCompletion.load(ordering: .relaxed) == 0)
                let outcome = subscriber.outcome.withLock { $0 }
                let asked = subscriber.cancelRequested.load(ordering: .acquiring)
                switch outcome {
                case .success(let count):
                    #expect(count == 1000 + subscriber.index % 100)
                    if asked { lostRace += 1 }
                case .failure(let error):
                    #expect(asked && error.isCancelled, "subscriber \(subscriber.index): \(error)")
                    cancelledByUs += 1
                case nil:
                    Issue.record("no outcome for \(subscriber.index)")
                }
            }
            // About a third were asked to cancel; each either won (cancelled) or came too
            // late (its download had finished), never anything else.
            let asked = subscribers.filter { $0.cancelRequested.load(ordering: .acquiring) }.count
            #expect(cancelledByUs + lostRace == asked)
            #expect(asked > 2500 && cancelledByUs > 0, "\(asked) asked, \(cancelledByUs) cancelled, \(lostRace) too late")
            #expect(registry.keyCount == 0)
            #expect(registry.subscriberCount == 0)
            await monitor.allFinished()
            #expect(downloader.activeDownloadCount == 0)
            #expect(downloader.currentDownloadCount == 0)
            #expect(downloader.queue.pendingCount == 0)
            let counts = await monitor.settled()
            #expect(counts.queued == counts.finished, "every download that was queued finished: none leaked")
            #expect(counts.queued >= 100)
        }
    }
}
