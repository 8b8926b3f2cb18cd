import CLibCurl
import Foundation
import WebImageCore

/// Connection slots: a hop enters libcurl when its lane (origin) has a free slot, and
/// waits in the lane's queue otherwise (see ``AdmissionControl``).
extension CurlEventLoop {
    /// Starts the current hop: into libcurl at once when its lane has a free slot,
    /// otherwise once one frees (``admitWaiting()``).
    func startHop(_ state: TransferState) {
        loopThread.assertOnLoop()
        // Paused between hops (or before the first): the hop starts when resumed.
        if state.lifecycle.holdIfPaused() { return }
        let origin = Self.origin(of: state)
        var slot: AdmissionControl<TransferState>.LaneQueue?
        if let lane = lane(for: state, origin: origin) {
            let (admitted, queue) = admission.enter(state, lane: lane, limit: limit(of: lane))
            guard admitted else {
                state.lifecycle.queue(in: queue, now: .now)
                return
            }
            slot = queue
        }
        addToMulti(state, slot: slot, origin: origin)
    }

    /// Hands libcurl the waiting transfers that have a free slot now; whether any.
    @discardableResult
    func admitWaiting() -> Bool {
        var admitted = false
        while let (state, queue) = admission.next() {
            addToMulti(state, slot: queue, origin: queue.lane.origin)
            admitted = true
        }
        return admitted
    }

    /// Gives back a slot (or a place in its queue) the lifecycle let go of.
    func release(_ cleanup: TransferLifecycle<AdmissionControl<TransferState>.LaneQueue>.Cleanup, of state: TransferState) {
        switch cleanup {
        case .nothing:
            break
        case .withdraw(let queue):
            admission.withdraw(state, from: queue)
        case .removeFromMulti(let queue):
            if let easy = state.easy { curl_multi_remove_handle(multi, easy) }
            if state.request.timeouts.hasLoopTimer { timedHops -= 1 }
            if let queue { admission.leave(queue) }
        }
    }

    /// HTTP(S) hops queue per origin; `file:` hops need no connection.
    private func lane(for state: TransferState, origin: String) -> AdmissionControl<TransferState>.Lane? {
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
    private func limit(of lane: AdmissionControl<TransferState>.Lane) -> Int {
        let connections = environment.configuration.maximumConnectionsPerHost
        guard connections > 0 else { return 0 }
        return lane.multiplexed ? connections * Self.streamsPerConnection : connections
    }
}
