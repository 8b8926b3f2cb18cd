import Foundation
import WebImageCore

/// The loop's timers: the stall timeout of running hops and the whole-transfer timeout
/// of running and waiting ones, checked at most every
/// ``CurlEventLoop/timerCheckInterval``. Paused and held transfers run no timer.
extension CurlEventLoop {
    /// Fails the transfers a timer ends now; whether any.
    func checkTimers() -> Bool {
        guard slots.watchesTimers else { return false }
        let now = ContinuousClock.now
        guard now - lastTimerCheck >= Self.timerCheckInterval else { return false }
        lastTimerCheck = now
        var expired = slots.expiredWaiting(now: now)
        if slots.timedHops > 0 {
            for state in transfers.values where state.lifecycle.isRunning && state.request.timeouts.hasLoopTimer {
                let mayMultiplex = state.lifecycle.slot?.lane.multiplexed == true
                let expiry = state.lifecycle.checkTimers(now: now, activity: state.activity, connecting: !state.hasConnection) {
                    state.connectionBytesReceived(mayMultiplex: mayMultiplex)
                }
                if let expiry {
                    if let easy = state.easy {
                        let response = state.currentResponse()
                        state.transactions.append(
                            TransactionMetricsReader.read(
                                easy, url: state.url, statusCode: response?.statusCode, httpVersion: response?.httpVersion))
                    }
                    expired.append((state, expiry))
                }
            }
        }
        for (state, expiry) in expired { complete(state, .failure(state.error(expiry))) }
        return !expired.isEmpty
    }
}

extension TransferState {
    /// The error a timer ends the transfer with.
    func error(_ expiry: TransferState.StateMachine<CurlEventLoop.Slot>.TimerExpiry) -> TransportError {
        switch expiry {
        case .waitedForConnection(let total):
            error(.waitedForConnection, "no connection came free within \(total); the request was not sent")
        case .timedOut(let total):
            error(.timedOut, "the transfer took longer than \(total), waiting for a connection at the end")
        case .stalled(let limit):
            error(.stalled, "nothing arrived for \(limit)")
        case .budgetSpent(let total):
            error(.timedOut, "the transfer took longer than \(total)")
        }
    }
}
