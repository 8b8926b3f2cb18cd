import WebImageCore

/// What one wait for the network holds: the observation that hears it come back, and the
/// timer of ``NetworkRecovery/maximumWait``. Whatever ends the wait (the network back,
/// the bound, a cancel) ends both, so neither outlives the load.
struct NetworkWait: Sendable {
    let observation: ReachabilityObservation
    let timer: Task<Void, Never>

    func end() {
        observation.cancel()
        timer.cancel()
    }
}
