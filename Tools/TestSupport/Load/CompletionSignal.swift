import NIOConcurrencyHelpers
import WebImageCore

/// Wakes the task waiting for one load. Firing more than once is harmless (a duplicate
/// completion is the ledger's to count, not this signal's to crash on), and firing
/// before anyone waits is remembered.
final class CompletionSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    private let state = NIOLockedValueBox(State.idle)

    func fire() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            defer { state = .fired }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let firedAlready = state.withLockedValue { state -> Bool in
                if case .fired = state { return true }
                state = .waiting(continuation)
                return false
            }
            if firedAlready { continuation.resume() }
        }
    }
}
