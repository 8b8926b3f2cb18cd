import Foundation
import Synchronization

@testable import WebImageConcurrency
@testable import WebImageCore

struct TestFailure: Error, Equatable {
    let reason: String
    static let cancelled = TestFailure(reason: "cancelled")
}

typealias TestRegistryEvent = SubscriberEvent<String, Int, TestFailure>

/// Keeps what one subscriber heard, in order.
final class EventLog: Sendable {
    private let events = Locked<[TestRegistryEvent]>([])
    private let ended = AsyncStream<Void>.makeStream()

    var all: [TestRegistryEvent] { events.withLock { $0 } }

    var completions: [Result<Int, TestFailure>] {
        all.compactMap { if case .completed(let result) = $0 { result } else { nil } }
    }

    var handler: @Sendable (TestRegistryEvent) -> Void {
        { event in
            self.events.withLock { $0.append(event) }
            if event.isCompletion { self.ended.continuation.yield() }
        }
    }

    /// Waits for the completion.
    func completion() async -> Result<Int, TestFailure>? {
        if let first = completions.first { return first }
        for await _ in ended.stream { break }
        return completions.first
    }
}

/// Counts calls, from any thread.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
