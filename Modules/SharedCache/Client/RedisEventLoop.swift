import CHiredis
import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// The shared cache's own thread: every hiredis call happens here, so no thread of
/// Swift's cooperative pool ever waits on a node.
///
/// Other threads post commands to the inbox (waking the thread through a pipe only when
/// it sleeps); each pass takes every command posted, appends each to its node's
/// connection, writes them out, then polls the nodes' sockets until a reply, a new
/// command or the oldest command's deadline. A burst of commands to one node leaves in
/// one write: pipelining comes from the batching, not from the caller.
final class RedisEventLoop: @unchecked Sendable {
    struct Submission {
        let node: Int
        let command: [UInt8]
        let completion: RedisConnection.Completion
    }

    private struct Inbox {
        var submissions: [Submission] = []
        /// The thread is in (or about to enter) `poll` with nothing to do: a post wakes it.
        var sleeping = false
        var closed = false
    }

    private let inbox = Locked(Inbox())
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// Loop-thread state: one connection per node.
    private let connections: [RedisConnection]
    private let healthSnapshot: Locked<[Bool]>
    private let loopThread = Locked<pthread_t?>(nil)

    init(nodes: [RedisNodeAddress], timeouts: RedisConnection.Timeouts, backoff: (initial: Duration, maximum: Duration)) {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) != 0 { descriptors = [-1, -1] }
        for descriptor in descriptors where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        wakeReader = descriptors[0]
        wakeWriter = descriptors[1]
        connections = nodes.map {
            RedisConnection(
                address: $0, timeouts: timeouts, health: NodeHealth(initialBackoff: backoff.initial, maximumBackoff: backoff.maximum))
        }
        healthSnapshot = Locked(Array(repeating: true, count: nodes.count))
        Thread.startNamed("webimage.redis") { [self] in run() }
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    /// Posts a command to node `node`; `completion` runs on the loop's thread (or here,
    /// when the loop has stopped).
    func submit(_ submission: Submission) {
        let (accepted, wake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.closed else { return (false, false) }
            inbox.submissions.append(submission)
            let wake = inbox.sleeping
            inbox.sleeping = false
            return (true, wake)
        }
        guard accepted else { return submission.completion(.failure(.shutdown)) }
        if wake {
            var byte: UInt8 = 1
            _ = write(wakeWriter, &byte, 1)
        }
    }

    /// Whether each node was up after the loop's last pass (for statistics).
    var nodesUp: [Bool] { healthSnapshot.withLock { $0 } }

    /// Stops the thread: commands waiting fail with `shutdown`, connections close. Returns
    /// once the thread has ended.
    func shutdown() {
        let first = inbox.withLock { inbox -> Bool in
            defer { inbox.closed = true }
            return !inbox.closed
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        // A completion on the loop's thread may drop the last reference to the cache:
        // that thread cannot wait for itself, and ends after this pass anyway.
        let onLoopThread = loopThread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !onLoopThread { finished.wait() }
    }

    // MARK: The loop

    private func run() {
        loopThread.withLock { $0 = pthread_self() }
        // hiredis writes with write(2): a node that closed its end must give EPIPE, not
        // kill the process. SIGPIPE from a write is sent to the writing thread, so
        // blocking it here is enough and leaves the application's handling alone.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        var taken: [Submission] = []
        var descriptors: [pollfd] = []
        var owners: [Int] = []
        var drain = [UInt8](repeating: 0, count: 64)
        var up = Array(repeating: true, count: connections.count)
        while true {
            let closed = inbox.withLock { inbox -> Bool in
                swap(&taken, &inbox.submissions)
                inbox.sleeping = taken.isEmpty && !inbox.closed
                return inbox.closed
            }
            var now = ContinuousClock.now
            for submission in taken {
                connections[submission.node].send(submission.command, at: now, completion: submission.completion)
            }
            let worked = !taken.isEmpty
            taken.removeAll(keepingCapacity: true)
            if closed { break }
            // Written now rather than after the next poll reports the socket writable.
            if worked { for connection in connections { connection.flush() } }

            descriptors.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
            var deadline: ContinuousClock.Instant?
            for (index, connection) in connections.enumerated() {
                if let due = connection.nextDeadline { deadline = deadline.map { min($0, due) } ?? due }
                guard let descriptor = connection.descriptor, connection.wantsRead || connection.wantsWrite else { continue }
                let events = (connection.wantsRead ? Int16(POLLIN) : 0) | (connection.wantsWrite ? Int16(POLLOUT) : 0)
                descriptors.append(pollfd(fd: descriptor, events: events, revents: 0))
                owners.append(index)
            }
            let timeout = worked ? 0 : Self.milliseconds(until: deadline, from: now)
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            now = ContinuousClock.now
            if ready > 0 {
                if descriptors[0].revents != 0 { while read(wakeReader, &drain, drain.count) > 0 {} }
                for (slot, index) in owners.enumerated() where descriptors[slot + 1].revents != 0 {
                    // The connection may have been closed and reopened on another
                    // descriptor within this pass: its old readiness means nothing.
                    guard connections[index].descriptor == descriptors[slot + 1].fd else { continue }
                    connections[index].handle(events: descriptors[slot + 1].revents)
                }
            }
            for connection in connections { connection.expire(at: now) }
            var changed = false
            for (index, connection) in connections.enumerated() where connection.health.admits(at: now) != up[index] {
                up[index].toggle()
                changed = true
            }
            if changed { healthSnapshot.withLock { [up] in $0 = up } }
        }
        let now = ContinuousClock.now
        for connection in connections { connection.close(.shutdown, at: now) }
        finished.signal()
    }

    /// `poll`'s timeout: until `deadline` (rounded up), at most a second; forever without one.
    private static func milliseconds(until deadline: ContinuousClock.Instant?, from now: ContinuousClock.Instant) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(milliseconds, 1000))
    }
}
