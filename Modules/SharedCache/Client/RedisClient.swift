import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency

/// Commands to the nodes by index, answered asynchronously or with a callback. Owns the
/// event loop thread; ``shutdown()`` (or the last reference going) stops it.
final class RedisClient: Sendable {
    let nodes: [RedisNodeAddress]
    private let loop: RedisEventLoop

    init(nodes: [RedisNodeAddress], timeouts: RedisConnection.Timeouts, backoff: (initial: Duration, maximum: Duration)) {
        self.nodes = nodes
        loop = RedisEventLoop(nodes: nodes, timeouts: timeouts, backoff: backoff)
    }

    deinit { loop.shutdown() }

    /// Sends `command` to `node`; `completion` runs once, on the loop's thread.
    func send(_ command: RedisCommand, to node: Int, completion: @escaping @Sendable (Result<RedisReply, RedisFailure>) -> Void) {
        loop.submit(RedisEventLoop.Submission(node: node, command: command.encoded, completion: completion))
    }

    /// The reply to `command`. A command cannot be taken back once sent, so cancelling the
    /// caller does not end the wait early; the command timeout bounds it.
    func send(_ command: RedisCommand, to node: Int) async -> Result<RedisReply, RedisFailure> {
        await withCheckedContinuation { continuation in
            send(command, to: node) { continuation.resume(returning: $0) }
        }
    }

    /// The reply to `command`, waited for on the calling thread (for the synchronous API).
    func sendAndWait(_ command: RedisCommand, to node: Int) -> Result<RedisReply, RedisFailure> {
        let box = ReplyBox()
        send(command, to: node) { box.set($0) }
        return box.wait()
    }

    /// Whether each node was up (or past its backoff) at the loop's last pass.
    var nodesUp: [Bool] { loop.nodesUp }

    func shutdown() { loop.shutdown() }
}

/// A reply handed from the loop's thread to a thread blocked waiting for it.
private final class ReplyBox: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let result = Locked<Result<RedisReply, RedisFailure>?>(nil)

    func set(_ result: Result<RedisReply, RedisFailure>) {
        self.result.withLock { $0 = result }
        semaphore.signal()
    }

    func wait() -> Result<RedisReply, RedisFailure> {
        semaphore.wait()
        return result.withLock { $0 } ?? .failure(.shutdown)
    }
}
