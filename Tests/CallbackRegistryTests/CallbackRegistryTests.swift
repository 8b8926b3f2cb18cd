import Dispatch
import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("CallbackRegistry: subscribers per key")
struct CallbackRegistryTests {
    let registry = CallbackRegistry<String, String, Int, TestFailure>()

    @Test("the first subscriber of a key starts the work; later ones join it")
    func firstAndJoiners() {
        let first = registry.add(to: "a", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        let second = registry.add(to: "a", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        let other = registry.add(to: "b", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        #expect(first.isFirst)
        #expect(!second.isFirst)
        #expect(other.isFirst)
        #expect(Set([first.token, second.token, other.token]).count == 3)
        #expect(registry.subscriberCount(for: "a") == 2)
        #expect(registry.keyCount == 2)
    }

    @Test("progress, partial results and the completion reach every subscriber, completion last")
    func fanOut() {
        let logs = (0..<3).map { _ in EventLog() }
        for log in logs { registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: log.handler) }
        registry.publishProgress(received: 10, expected: 100, for: "k")
        registry.publishPartial("scan 1", for: "k")
        #expect(registry.finish("k", with: .success(42)) == 3)
        for log in logs {
            #expect(log.all.count == 3)
            guard case .progress(10, 100) = log.all[0], case .partial("scan 1") = log.all[1] else {
                Issue.record("unexpected events \(log.all)")
                continue
            }
            #expect(log.completions == [.success(42)])
        }
        #expect(registry.keyCount == 0)
        #expect(registry.subscriberCount == 0)
    }

    @Test("after a finish the key is free: the next subscriber starts new work and nothing old reaches it")
    func finishFreesKey() {
        registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        registry.finish("k", with: .success(1))
        let log = EventLog()
        let again = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: log.handler)
        #expect(again.isFirst)
        #expect(log.all.isEmpty)
        #expect(registry.finish("missing", with: .success(0)) == 0)
    }

    @Test("removing a token completes that subscriber only, with the failure given")
    func removeOne() {
        let stays = EventLog()
        let leaves = EventLog()
        registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: stays.handler)
        let token = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: leaves.handler).token
        #expect(registry.remove(token, failure: .cancelled))
        #expect(!registry.remove(token, failure: .cancelled), "a second removal finds nothing")
        registry.publishProgress(received: 1, expected: nil, for: "k")
        registry.finish("k", with: .success(7))
        #expect(leaves.completions == [.failure(.cancelled)])
        #expect(leaves.all.count == 1, "nothing after its completion")
        #expect(stays.completions == [.success(7)])
    }

    @Test("a token of a finished run removes nobody from the key's next run, and the counts stay right")
    func staleTokenAfterFinish() {
        let old = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in }).token
        registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        registry.finish("k", with: .success(1))
        #expect(registry.subscriberCount == 0)
        let log = EventLog()
        let next = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: log.handler)
        #expect(next.token.run != old.run)
        #expect(!registry.remove(old, failure: .cancelled), "the old run is gone")
        #expect(!registry.remove(SubscriptionToken(id: next.token.id), failure: .cancelled), "a token that names no run finds nothing")
        #expect(registry.subscriberCount(for: "k") == 1)
        #expect(registry.subscriberCount == 1)
        #expect(registry.remove(next.token, failure: .cancelled))
        #expect(log.completions == [.failure(.cancelled)])
        #expect(registry.subscriberCount == 0)
        #expect(registry.keyCount == 0)
    }

    @Test("the owner hears once when the last subscriber leaves, and never after a finish")
    func abandonment() {
        let abandoned = Counter()
        let a = registry.add(to: "k", delivery: .immediate, whenAbandoned: { abandoned.increment() }, handler: { _ in })
        let b = registry.add(
            to: "k", delivery: .immediate, whenAbandoned: { Issue.record("only the first's handler is kept") }, handler: { _ in })
        registry.remove(a.token, failure: .cancelled)
        #expect(abandoned.count == 0)
        registry.remove(b.token, failure: .cancelled)
        #expect(abandoned.count == 1)
        #expect(registry.keyCount == 0)

        let finished = Counter()
        let c = registry.add(to: "j", delivery: .immediate, whenAbandoned: { finished.increment() }, handler: { _ in })
        registry.finish("j", with: .success(0))
        #expect(!registry.remove(c.token, failure: .cancelled), "too late: it already had its result")
        #expect(finished.count == 0)
    }

    @Test("the work the first subscriber makes is kept with its run: later subscribers, the lookups and the abandonment get it")
    func workKeptWithTheRun() throws {
        final class Work: Sendable {}
        let made = Counter()
        let abandonedWith = Locked<(any AnyObject & Sendable)?>(nil)
        func join(_ key: String) -> Subscription {
            registry.add(
                to: key, delivery: .immediate,
                makeRun: {
                    made.increment()
                    return Work()
                }, whenAbandoned: { run in abandonedWith.withLock { $0 = run } }, handler: { _ in })
        }
        let first = join("k")
        let second = join("k")
        let work = try #require(first.run)
        #expect(made.count == 1, "made for the first subscriber only")
        #expect(second.run === work && registry.run(for: "k") === work)
        let other = join("j")
        #expect(registry.runs.count == 2 && registry.runs.contains { $0 === other.run })

        registry.finish("j", with: .success(0))
        #expect(registry.run(for: "j") == nil && registry.runs.count == 1)
        registry.remove(first.token, failure: .cancelled)
        registry.remove(second.token, failure: .cancelled)
        let abandoned = abandonedWith.withLock { $0 }
        #expect(abandoned === work)
        #expect(registry.run(for: "k") == nil && registry.runs.isEmpty)
    }

    @Test("work every subscriber left can reach nobody: its run's progress and finish miss the key's newer run")
    func generations() {
        let old = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        let joiner = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
        #expect(joiner.generation == old.generation, "a joiner shares the run")
        registry.remove(old.token, failure: .cancelled)
        registry.remove(joiner.token, failure: .cancelled)

        let log = EventLog()
        let new = registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: log.handler)
        #expect(new.isFirst && new.generation != old.generation)
        registry.publishProgress(received: 1, expected: nil, for: "k", generation: old.generation)
        registry.publishPartial("stale", for: "k", generation: old.generation)
        #expect(registry.finish("k", generation: old.generation, with: .failure(.cancelled)) == 0)
        #expect(log.all.isEmpty)

        registry.publishProgress(received: 2, expected: nil, for: "k", generation: new.generation)
        #expect(registry.finish("k", generation: new.generation, with: .success(5)) == 1)
        #expect(log.all.count == 2)
        #expect(log.completions == [.success(5)])
    }

    @Test("a handler may cancel itself and add subscribers: no deadlock, its completion comes after it returns")
    func reentrantHandler() {
        let log = EventLog()
        let tokenBox = Locked<SubscriptionToken?>(nil)
        let inside = Atomic<Bool>(false)
        let registry = self.registry
        let token = registry.add(
            to: "k", delivery: .immediate, whenAbandoned: {},
            handler: { event in
                if case .progress = event {
                    inside.store(true, ordering: .relaxed)
                    if let token = tokenBox.withLock({ $0 }) { registry.remove(token, failure: .cancelled) }
                    registry.add(to: "other", delivery: .immediate, whenAbandoned: {}, handler: { _ in })
                    #expect(!log.all.contains { $0.isCompletion }, "the completion waits for this handler to return")
                    inside.store(false, ordering: .relaxed)
                }
                if event.isCompletion {
                    let stillInside = inside.load(ordering: .relaxed)
                    #expect(!stillInside)
                }
                log.handler(event)
            }
        ).token
        tokenBox.withLock { $0 = token }
        registry.publishProgress(received: 1, expected: nil, for: "k")
        #expect(log.completions == [.failure(.cancelled)])
        #expect(registry.subscriberCount(for: "other") == 1)
    }

    @Test("a subscriber's handler is released after its completion")
    func handlerReleased() {
        final class Capture: Sendable {}
        weak var weakCapture: Capture?
        do {
            let capture = Capture()
            weakCapture = capture
            registry.add(to: "k", delivery: .immediate, whenAbandoned: {}, handler: { _ in _ = capture })
        }
        #expect(weakCapture != nil, "held while subscribed")
        registry.finish("k", with: .success(1))
        #expect(weakCapture == nil)
    }
}
