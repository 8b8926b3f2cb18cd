import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageCore

@testable import WebImageConcurrency

/// A run that records what the runs told it; it does no work of its own.
private final class RecordingRun: CoalescedRun {
    enum Call: Equatable {
        case start(generation: UInt64)
        case abandoned(keepingResumableData: Bool)
        case paused(Bool)
        case raised(DownloadPriority)
    }

    let key: String
    private let record = Locked<[Call]>([])

    init(key: String) { self.key = key }

    var calls: [Call] { record.withLock { $0 } }

    func start(generation: UInt64) { record.withLock { $0.append(.start(generation: generation)) } }
    func abandoned(keepingResumableData: Bool) { record.withLock { $0.append(.abandoned(keepingResumableData: keepingResumableData)) } }
    func pauseChanged(to paused: Bool) { record.withLock { $0.append(.paused(paused)) } }
    func priorityRaised(to priority: DownloadPriority) { record.withLock { $0.append(.raised(priority)) } }
}

private typealias Runs = CoalescedRuns<RecordingRun, String, Int, TestFailure>

private enum TestFailure: Error, Equatable { case cancelled }

/// The events each subscriber received, by subscriber name.
private final class Inboxes: Sendable {
    private let events = Locked<[String: [String]]>([:])

    func handler(_ name: String) -> @Sendable (SubscriberEvent<String, Int, TestFailure>) -> Void {
        { event in
            let text: String
            switch event {
            case .progress(let received, _): text = "progress \(received)"
            case .partial(let partial): text = "partial \(partial)"
            case .completed(.success(let value)): text = "success \(value)"
            case .completed(.failure(let error)): text = "failure \(error)"
            }
            self.events.withLock { $0[name, default: []].append(text) }
        }
    }

    subscript(name: String) -> [String] { events.withLock { $0[name] ?? [] } }
}

@Suite("CoalescedRuns: subscribers of one key share one run")
final class CoalescedRunsTests: Sendable {
    private let runs = Runs(registry: CallbackRegistry())
    private let inboxes = Inboxes()
    private let made = Locked<[RecordingRun]>([])

    private func join(_ name: String, key: String = "a", priority: DownloadPriority = .normal) -> Runs.Membership {
        let membership = runs.join(
            key, priority: priority, delivery: .immediate,
            makeRun: {
                let run = RecordingRun(key: key)
                made.withLock { $0.append(run) }
                return run
            }, handler: inboxes.handler(name))
        runs.begin(membership, priority: priority)
        return membership
    }

    @Test("the first subscriber starts the run; later ones join it and start nothing")
    func firstStartsOthersJoin() throws {
        let first = join("first")
        let second = join("second")
        let run = try #require(first.run)
        #expect(first.isFirst && !second.isFirst)
        #expect(second.run === run)
        #expect(run.calls == [.start(generation: first.generation)])
        #expect(runs.count == 1)
    }

    @Test("the registry keeps each run with its subscribers: its table is the one map from key to run")
    func registryKeepsTheRuns() throws {
        let a = try #require(join("first", key: "a").run)
        let b = try #require(join("second", key: "b").run)
        #expect(runs.registry.keyCount == 2 && runs.count == 2)
        #expect(Set(runs.all.map(ObjectIdentifier.init)) == [ObjectIdentifier(a), ObjectIdentifier(b)])
        #expect(runs["a"] === a && runs["b"] === b)
        runs.finish(a, generation: join("third", key: "a").generation, with: .success(0))
        #expect(runs.all.map(ObjectIdentifier.init) == [ObjectIdentifier(b)])
        #expect(made.withLock { $0.count } == 2, "a subscriber that joins costs no run")
    }

    @Test("finishing the run completes every subscriber once and forgets it")
    func finishFansOut() throws {
        let first = join("first")
        _ = join("second")
        let run = try #require(first.run)
        #expect(runs.finish(run, generation: first.generation, with: .success(7)) == 2)
        #expect(inboxes["first"] == ["success 7"] && inboxes["second"] == ["success 7"])
        #expect(runs.count == 0 && runs["a"] == nil)
    }

    @Test("the run is abandoned when its last subscriber leaves, and keeps its bytes only when that one asked")
    func abandonedByTheLast() throws {
        let first = join("first")
        let second = join("second")
        let run = try #require(first.run)
        #expect(runs.leave(first, keepingResumableData: true, failure: .cancelled))
        #expect(!run.calls.contains(.abandoned(keepingResumableData: true)))
        #expect(runs.leave(second, keepingResumableData: false, failure: .cancelled))
        #expect(run.calls.last == .abandoned(keepingResumableData: false))
        #expect(inboxes["first"] == ["failure cancelled"] && inboxes["second"] == ["failure cancelled"])
        #expect(runs.count == 0)
        #expect(!runs.leave(second, keepingResumableData: false, failure: .cancelled), "a second leave finds nobody")
    }

    @Test("a run pauses while every subscriber present has paused, and resumes when one resumes or a new one joins")
    func pauseRule() throws {
        let first = join("first")
        let second = join("second")
        let run = try #require(first.run)
        runs.setPaused(first, true)
        #expect(!run.calls.contains(.paused(true)))
        runs.setPaused(second, true)
        #expect(run.calls.last == .paused(true))
        _ = join("third")
        #expect(run.calls.last == .paused(false))
    }

    @Test("a paused subscriber's leaving does not hold the others' pause back, and the last one's leaving changes nothing")
    func leavingAndPausing() throws {
        let first = join("first")
        let second = join("second")
        let run = try #require(first.run)
        runs.setPaused(second, true)
        runs.leave(first, keepingResumableData: false, failure: .cancelled)
        #expect(run.calls.last == .paused(true), "the one left has paused")
        runs.leave(second, keepingResumableData: false, failure: .cancelled)
        #expect(run.calls.last == .abandoned(keepingResumableData: false))
    }

    @Test("a run moves up to the highest priority a subscriber asked, never down")
    func priorityRises() throws {
        let first = join("first", priority: .low)
        let run = try #require(first.run)
        _ = join("second", priority: .high)
        _ = join("third", priority: .normal)
        runs.raisePriority(first, to: .normal)
        #expect(run.calls.filter { if case .raised = $0 { true } else { false } } == [.raised(.high)])
        #expect(runs.priority(of: run) == .high)
    }

    @Test("after every subscriber left, a new subscriber starts a new run that the old one cannot reach")
    func newGeneration() throws {
        let old = join("old")
        let oldRun = try #require(old.run)
        runs.leave(old, keepingResumableData: false, failure: .cancelled)
        let new = join("new")
        let newRun = try #require(new.run)
        #expect(newRun !== oldRun)
        #expect(runs.finish(oldRun, generation: old.generation, with: .success(1)) == 0)
        #expect(runs["a"] === newRun, "the old run's end does not forget the new one")
        #expect(inboxes["new"].isEmpty)
        runs.finish(newRun, generation: new.generation, with: .success(2))
        #expect(inboxes["new"] == ["success 2"])
    }

    @Test("a token kept after its run ended holds none of it")
    func membershipHoldsTheRunWeakly() {
        weak var weakRun: RecordingRun?
        let membership: Runs.Membership = {
            let membership = join("first")
            weakRun = membership.run
            runs.finish(membership.run!, generation: membership.generation, with: .success(0))
            made.withLock { $0.removeAll() }
            return membership
        }()
        #expect(weakRun == nil)
        #expect(membership.run == nil)
    }

    @Test("whenEmpty returns once the last run ends")
    func whenEmpty() async throws {
        let first = join("first")
        let run = try #require(first.run)
        async let emptied: Void = runs.whenEmpty()
        runs.finish(run, generation: first.generation, with: .success(0))
        await emptied
        #expect(runs.count == 0)
    }

    @Test("whenEmpty returns once the last run is abandoned")
    func whenEmptyAfterAbandonment() async {
        let first = join("first")
        async let emptied: Void = runs.whenEmpty()
        runs.leave(first, keepingResumableData: false, failure: .cancelled)
        await emptied
        #expect(runs.count == 0)
    }
}
