import CLibCurl
import Foundation
import WebImageConcurrency
import WebImageCore

/// Connection slots: a hop enters libcurl when its lane (origin) has a free slot, and
/// waits in the lane's queue otherwise. ``SlotScheduler`` decides; here the loop does
/// what it says in libcurl.
extension CurlEventLoop {
    typealias Lane = AdmissionControl<TransferState>.Lane
    /// A connection slot: its lane's queue.
    typealias Slot = AdmissionControl<TransferState>.LaneQueue

    /// Starts the current hop: into libcurl at once when its lane has a free slot,
    /// otherwise once one frees (``admitWaiting()``); held while the transfer is paused.
    func startHop(_ state: TransferState) {
        loopThread.assertOnLoop()
        let origin = Self.origin(of: state)
        let lane = lane(for: state, origin: origin)
        switch slots.startHop(state, lane: lane, limit: lane.map(limit(of:)) ?? 0, now: .now) {
        case .held:
            break
        case .queued:
            // Once per wait: a hop joins a queue only here; a waiter paused leaves it, and
            // joins again through here (a new wait) when resumed.
            if !environment.monitors.isEmpty {
                let (task, request) = (state.task, state.hopRequest)
                environment.monitors.emit { $0.transferIsWaitingForConnection(task, request: request) }
            }
        case .admitted(let admission, _):
            enter(state, admission, origin: origin)
        }
    }

    /// Hands libcurl the waiting transfers that have a free slot now; whether any.
    @discardableResult
    func admitWaiting() -> Bool {
        var admitted = false
        while let (state, slot, admission) = slots.next(now: .now) {
            enter(state, admission, origin: slot.lane.origin)
            admitted = true
        }
        return admitted
    }

    /// Sends an admitted hop, or ends the transfer whose budget was gone.
    private func enter(_ state: TransferState, _ admission: TransferState.StateMachine<Slot>.Admission, origin: String) {
        switch admission {
        case .send: addToMulti(state, origin: origin)
        case .fail(let expiry): complete(state, .failure(state.error(expiry)))
        }
    }

    /// HTTP(S) hops queue per origin; `file:` hops need no connection.
    private func lane(for state: TransferState, origin: String) -> Lane? {
        let scheme = state.scheme
        guard scheme == "http" || scheme == "https" else { return nil }
        let multiplexed =
            scheme == "https" && environment.configuration.multiplexesHTTP2
            && state.request.preferredHTTPVersion != .http1_1
        return .init(origin: origin, multiplexed: multiplexed)
    }

    /// As many transfers as the lane's connections can carry at once: one each over
    /// HTTP/1.1, a connection's streams over HTTP/2. libcurl still enforces the
    /// connection limits itself; this only keeps its queue short.
    private func limit(of lane: Lane) -> Int {
        let connections = environment.configuration.maximumConnectionsPerHost
        guard connections > 0 else { return 0 }
        return lane.multiplexed ? connections * Self.streamsPerConnection : connections
    }
}
