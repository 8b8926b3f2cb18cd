import Synchronization
import Testing
import WebImageCore

@testable import WebImageConcurrency

@Suite("A subscription as an async sequence")
struct SubscriptionStreamTests {
    typealias Event = SubscriberEvent<String, Int, CancelledForTest>
    struct CancelledForTest: Error {}

    /// The subscription's side: what the stream's handler receives, and whether it was
    /// cancelled.
    final class FakeSubscription: Cancellable, Sendable {
        private let handler = Locked<(@Sendable (Event) -> Void)?>(nil)
        private let cancelled = Atomic<Bool>(false)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

        func cancel() { cancelled.store(true, ordering: .releasing) }
        func attach(_ handler: @escaping @Sendable (Event) -> Void) { self.handler.withLock { $0 = handler } }
        func send(_ event: Event) { handler.withLock { $0 }?(event) }
    }

    private func stream(_ subscription: FakeSubscription, sendingAtOnce: [Event] = []) -> AsyncStream<Event> {
        .subscription { handler in
            subscription.attach(handler)
            for event in sendingAtOnce { handler(event) }
            return subscription
        }
    }

    /// Every event of `events` until it ends, described.
    private func collect(_ events: AsyncStream<Event>) async -> [String] {
        var seen: [String] = []
        for await event in events { seen.append(describe(event)) }
        return seen
    }

    private func describe(_ event: Event) -> String {
        switch event {
        case .progress(let received, _): "progress \(received)"
        case .partial(let value): "partial \(value)"
        case .completed(.success(let value)): "done \(value)"
        case .completed(.failure): "failed"
        }
    }

    @Test("a consumer that fell behind gets the newest progress, the newest partial and the completion, in order")
    func slowConsumer() async {
        let subscription = FakeSubscription()
        let events = stream(subscription)
        for received in 1...100 { subscription.send(.progress(received: Int64(received), expected: 300)) }
        subscription.send(.partial("first pass"))
        for received in 101...200 { subscription.send(.progress(received: Int64(received), expected: 300)) }
        subscription.send(.completed(.success(7)))
        #expect(await collect(events) == ["partial first pass", "progress 200", "done 7"])
    }

    @Test("a newer partial replaces an older one that was not read; the completion still comes last")
    func newerPartial() async {
        let subscription = FakeSubscription()
        let events = stream(subscription)
        subscription.send(.partial("scan 1"))
        subscription.send(.progress(received: 10, expected: nil))
        subscription.send(.partial("scan 2"))
        subscription.send(.completed(.success(1)))
        #expect(await collect(events) == ["progress 10", "partial scan 2", "done 1"])
    }

    @Test("a consumer that keeps up sees every event, and the sequence ends after the completion")
    func keepingUp() async {
        let subscription = FakeSubscription()
        var iterator = stream(subscription).makeAsyncIterator()
        var seen: [String] = []
        for step in 1...5 {
            subscription.send(step.isMultiple(of: 2) ? .partial("p\(step)") : .progress(received: Int64(step), expected: nil))
            if let event = await iterator.next() { seen.append(describe(event)) }
        }
        subscription.send(.completed(.success(5)))
        subscription.send(.progress(received: 99, expected: nil))  // after the end: dropped
        if let event = await iterator.next() { seen.append(describe(event)) }
        let end = await iterator.next()
        #expect(end == nil)
        #expect(seen == ["progress 1", "partial p2", "progress 3", "partial p4", "progress 5", "done 5"])
        #expect(!subscription.isCancelled)
    }

    @Test("a completion delivered while subscribing (a cache hit) is the one event")
    func immediateCompletion() async {
        let subscription = FakeSubscription()
        #expect(await collect(stream(subscription, sendingAtOnce: [.completed(.success(3))])) == ["done 3"])
    }

    @Test("cancelling the iterating task ends the sequence and cancels the subscription")
    func cancelTask() async {
        let subscription = FakeSubscription()
        let events = stream(subscription)
        let consumer = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        subscription.send(.progress(received: 1, expected: nil))
        // The sequence ends through its cancellation handler, which cancels the
        // subscription first: once the consumer has ended, the subscription is cancelled.
        consumer.cancel()
        let count = await consumer.value
        #expect(count <= 1)
        #expect(subscription.isCancelled)
    }

    @Test("dropping the sequence before its end cancels the subscription")
    func dropEarly() async {
        let subscription = FakeSubscription()
        do {
            var iterator = stream(subscription).makeAsyncIterator()
            subscription.send(.progress(received: 1, expected: nil))
            _ = await iterator.next()
        }
        #expect(subscription.isCancelled)
    }
}
