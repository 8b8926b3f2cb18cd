import Synchronization
import WebImageConcurrency
import WebImageCore

/// One observation of a host: its addresses once resolved, and the mailbox its statuses
/// go to. Resolution runs off the monitor's thread and is tried again on each change of
/// the tables until it succeeds (a name does not resolve while the network is down).
final class HostWatch: Sendable {
    let host: String
    let mailbox: StatusMailbox
    private struct State {
        var addresses: [[UInt8]] = []
        var resolving = false
    }
    private let state = Locked(State())

    init(host: String, mailbox: StatusMailbox) {
        self.host = host
        self.mailbox = mailbox
    }

    /// The resolved addresses (empty until one resolution succeeded).
    var addresses: [[UInt8]] { state.withLock { $0.addresses } }

    /// Claims the next resolution: `false` when one is already running or the addresses
    /// are known.
    func beginResolving() -> Bool {
        state.withLock { state in
            guard !state.resolving, state.addresses.isEmpty else { return false }
            state.resolving = true
            return true
        }
    }

    func finishResolving(with addresses: [[UInt8]]) {
        state.withLock { state in
            state.resolving = false
            state.addresses = addresses
        }
    }
}
