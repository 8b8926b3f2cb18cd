import Foundation
import Synchronization

@testable import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that accepts connections and never answers: each is held open until
/// ``closeAll()``, so a client's request stays under way for as long as a test needs.
/// ``signal`` fires at each connection accepted, so a test waits for the request to be
/// in flight instead of sleeping.
public final class HeldConnections: Sendable {
    public let port: Int
    /// Fires at each connection accepted.
    public var signal: EventSignal { state.signal }
    private let listener: Int32
    private let state = State()

    /// What the accepting thread shares with the tests; the thread holds this, not the
    /// owner, so that the owner's deinit can stop it.
    private final class State: Sendable {
        let signal = EventSignal()
        let held = Locked<[Int32]>([])
        let accepted = Atomic<Int>(0)
    }

    public init() throws {
        let (descriptor, port) = try LoopbackSocket.bound(listening: true)
        listener = descriptor
        self.port = port
        let thread = Thread { [state] in Self.accept(on: descriptor, into: state) }
        thread.name = "held-connections"
        thread.start()
    }

    deinit {
        // Wakes the accepting thread, which then closes the listener.
        shutdown(listener, Int32(SHUT_RDWR))
        closeAll()
    }

    /// How many connections were accepted.
    public var connectionCount: Int { state.accepted.load(ordering: .acquiring) }

    /// How many are still held open.
    public var openCount: Int { state.held.withLock { $0.count } }

    /// Closes every connection held: their clients see the peer close.
    public func closeAll() {
        let connections = state.held.withLock { held in
            defer { held = [] }
            return held
        }
        for descriptor in connections { close(descriptor) }
    }

    private static func accept(on listener: Int32, into state: State) {
        while true {
            let connection = Glibc.accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            state.held.withLock { $0.append(connection) }
            state.accepted.add(1, ordering: .releasing)
            state.signal.signal()
        }
    }
}
