import Synchronization
import Testing
import WebImageCore

@testable import WebImageManager

/// A wait's handles that record whether they were ended.
private func recordedWait() -> (NetworkWait, ended: @Sendable () -> Bool) {
    let timer = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
    let observationEnded = ManagedFlag()
    let wait = NetworkWait(observation: ReachabilityObservation { observationEnded.set() }, timer: timer)
    return (wait, { observationEnded.isSet && timer.isCancelled })
}

private final class ManagedFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}

@Suite("Manager: the decision of a wait for the network (its ends and its parts in every order)")
struct NetworkWaitGateTests {
    @Test("the first end decides: the load resumes with it and the wait's handles end; later ends change nothing")
    func firstEndDecides() async {
        let gate = NetworkWaitGate()
        let (wait, ended) = recordedWait()
        let outcome = await withCheckedContinuation { continuation in
            gate.install(continuation)
            gate.hold(wait)
            gate.decide(.networkBack)
            gate.decide(.timedOut)
            gate.decide(.cancelled)
        }
        #expect(outcome == .networkBack)
        #expect(gate.outcome == .networkBack)
        #expect(ended())
    }

    @Test("a cancel before the load is waiting resumes it once the handles arrive, and ends them first")
    func cancelledBeforeEverything() async {
        let gate = NetworkWaitGate()
        gate.decide(.cancelled)
        let (wait, ended) = recordedWait()
        let outcome = await withCheckedContinuation { continuation in
            gate.install(continuation)
            gate.hold(wait)
        }
        #expect(outcome == .cancelled)
        #expect(ended())
    }

    @Test("the network back before the handles arrive decides the wait; the handles are ended as they arrive, then the load resumes")
    func decidedBeforeTheHandles() async {
        let gate = NetworkWaitGate()
        let (wait, ended) = recordedWait()
        let outcome = await withCheckedContinuation { continuation in
            gate.install(continuation)
            gate.decide(.networkBack)
            #expect(!ended())
            gate.hold(wait)
        }
        #expect(outcome == .networkBack)
        #expect(ended())
    }

    @Test("the bound ends the wait with timedOut; undecided, the handles stay")
    func timedOut() async {
        let gate = NetworkWaitGate()
        let (wait, ended) = recordedWait()
        let outcome = await withCheckedContinuation { continuation in
            gate.install(continuation)
            gate.hold(wait)
            #expect(!ended(), "nothing decided yet")
            gate.decide(.timedOut)
        }
        #expect(outcome == .timedOut)
        #expect(ended())
    }
}
