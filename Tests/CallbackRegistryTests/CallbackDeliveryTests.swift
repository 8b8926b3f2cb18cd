import Dispatch
import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Delivery: where and in what order subscribers hear")
struct CallbackDeliveryTests {
    let registry = CallbackRegistry<String, String, Int, TestFailure>()

    @Test("a queue subscriber is called on its queue, in order")
    func onTheChosenQueue() async {
        let queue = DispatchQueue(label: "subscriber")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 7)
        let onQueue = Locked<[Bool]>([])
        let log = EventLog()
        registry.add(
            to: "k", delivery: .queue(queue), whenAbandoned: {},
            handler: { event in
                onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: marker) == 7) }
                log.handler(event)
            })
        registry.publishPartial("one", for: "k")
        registry.finish("k", with: .success(1))
        #expect(await log.completion() == .success(1))
        #expect(onQueue.withLock { $0 } == [true, true])
        guard case .partial("one") = log.all.first else {
            Issue.record("the partial comes first: \(log.all)")
            return
        }
    }

    @Test("a main-actor subscriber is called on the main actor's queue, in order")
    func onTheMainActor() async {
        // The main actor runs its jobs on the main queue (whichever thread drains it).
        let marker = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: marker, value: 1)
        let onMain = Locked<[Bool]>([])
        let log = EventLog()
        registry.add(
            to: "k", delivery: .mainActor, whenAbandoned: {},
            handler: { event in
                onMain.withLock { $0.append(DispatchQueue.getSpecific(key: marker) == 1) }
                log.handler(event)
            })
        registry.publishProgress(received: 1, expected: 3, for: "k")
        registry.publishPartial("one", for: "k")
        registry.finish("k", with: .success(3))
        #expect(await log.completion() == .success(3))
        #expect(onMain.withLock { $0 }.allSatisfy { $0 })
        guard case .progress(1, 3) = log.all.first, log.all.last?.isCompletion == true else {
            Issue.record("in order, completion last: \(log.all)")
            return
        }
    }

    @Test("a blocked subscriber never blocks the producer, and then sees the newest progress, not a backlog")
    func slowSubscriberGetsLatest() async {
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "slow")
        let slow = EventLog()
        registry.add(
            to: "k", delivery: .queue(queue), whenAbandoned: {},
            handler: { event in
                if case .progress(1, _) = event {
                    entered.signal()
                    gate.wait()
                }
                slow.handler(event)
            })
        let fast = EventLog()
        registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: fast.handler)

        registry.publishProgress(received: 1, expected: 1000, for: "k")
        entered.wait()
        // The slow subscriber is stuck in its first callback; the producer goes on.
        for received in 2...1000 { registry.publishProgress(received: Int64(received), expected: 1000, for: "k") }
        registry.finish("k", with: .success(0))
        #expect(fast.all.count == 1001, "an immediate subscriber hears every event")
        gate.signal()
        #expect(await slow.completion() == .success(0))
        let progress = slow.all.compactMap { if case .progress(let received, _) = $0 { received } else { nil } }
        #expect(progress == [1, 1000], "only the first (in flight) and the newest")
    }

    @Test("cancel and finish racing on many threads: exactly one completion per subscriber")
    func raceCancelAndFinish() async {
        let registry = self.registry
        for round in 0..<200 {
            let key = "k\(round)"
            let logs = (0..<8).map { _ in EventLog() }
            let tokens = logs.map { registry.add(to: key, delivery: .immediate, whenAbandoned: {}, handler: $0.handler).token }
            await withTaskGroup(of: Void.self) { group in
                for token in tokens { group.addTask { registry.remove(token, failure: .cancelled) } }
                group.addTask { registry.finish(key, with: .success(round)) }
            }
            for log in logs {
                #expect(log.completions.count == 1)
            }
        }
        #expect(registry.keyCount == 0)
        #expect(registry.subscriberCount == 0)
    }

    @Test(
        "many threads publishing to immediate subscribers: one call at a time, each thread's events in order, nothing after the completion")
    func publishersRacing() async {
        let registry = CallbackRegistry<String, Int, Int, TestFailure>()
        let threads = 8
        let perThread = 2000
        for round in 0..<20 {
            let key = "k\(round)"
            let seen = (0..<4).map { _ in SeenCalls() }
            for box in seen {
                registry.add(
                    to: key, delivery: .immediate, whenAbandoned: {},
                    handler: { event in
                        box.state.withLock { seen in
                            if seen.inside { seen.overlaps += 1 }
                            seen.inside = true
                            if seen.completions > 0 { seen.afterCompletion += 1 }
                            switch event {
                            case .partial(let value):
                                let thread = value / perThread
                                if value % perThread <= seen.last[thread] { seen.outOfOrder += 1 }
                                seen.last[thread] = value % perThread
                            case .completed: seen.completions += 1
                            case .progress: break
                            }
                        }
                        // Outside the lock, so that a second call at once would be seen.
                        box.state.withLock { $0.inside = false }
                    })
            }
            // The completion comes in the middle of the publishing: once the first
            // publisher is halfway through.
            let halfway = AsyncStream<Void>.makeStream()
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<threads {
                    group.addTask {
                        for i in 0..<perThread {
                            registry.publishPartial(thread * perThread + i, for: key)
                            if thread == 0, i == perThread / 2 { halfway.continuation.yield() }
                        }
                    }
                }
                group.addTask {
                    for await _ in halfway.stream { break }
                    registry.finish(key, with: .success(round))
                }
            }
            for box in seen {
                let result = box.state.withLock { $0 }
                #expect(result.completions == 1)
                #expect(result.afterCompletion == 0)
                #expect(result.outOfOrder == 0)
                #expect(result.overlaps == 0)
            }
        }
    }
}

/// What one subscriber saw: whether a call is running, overlaps seen, each publishing
/// thread's last partial, partials out of order, and events after the completion.
private final class SeenCalls: Sendable {
    struct State {
        var inside = false
        var overlaps = 0
        var last = [Int](repeating: -1, count: 8)
        var outOfOrder = 0
        var completions = 0
        var afterCompletion = 0
    }

    let state = Locked(State())
}
