import Dispatch
import Foundation
import Synchronization
import WebImageTestServer

/// The loopback server the network cases run against, started once for the run.
enum LoopbackBench {
    /// Runs `work` on the cooperative pool and waits for it here (the benchmark's main
    /// thread is not part of that pool, so this cannot starve it).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// `documentRoot`: the files served under /files/ (the cold-load case's JPEGs).
    static func start(documentRoot: URL? = nil) throws -> LoopbackServer {
        try blocking { try await LoopbackServer.start(.init(documentRoot: documentRoot, recordsRequests: true)) }
    }

    static func stop(_ server: LoopbackServer) {
        _ = try? blocking { try await server.shutdown() }
    }
}
