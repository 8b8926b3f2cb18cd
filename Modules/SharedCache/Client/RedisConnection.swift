import CHiredis
import Foundation
import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// One node's connection: a hiredis asynchronous context, the commands sent on it in the
/// order their replies will come, and the node's health. Touched by the event loop's
/// thread only (hiredis's contexts are not thread-safe), including from inside hiredis's
/// callbacks, which run there too.
///
/// hiredis asks for read and write readiness through the adapter hooks set here
/// (`ev.addRead` and friends); the loop polls the socket for what was asked and hands the
/// readiness back (`handle(events:)`). Commands go out pipelined: each is appended to
/// hiredis's buffer, and one write sends everything waiting.
final class RedisConnection {
    typealias Completion = @Sendable (Result<RedisReply, RedisFailure>) -> Void

    struct Timeouts {
        var command: Duration
        var connect: Duration
    }

    private struct Pending {
        let deadline: ContinuousClock.Instant
        /// `nil` for the connection's own `AUTH` and `SELECT`.
        let completion: Completion?
    }

    let address: RedisNodeAddress
    private let timeouts: Timeouts
    private(set) var health: NodeHealth
    private var context: UnsafeMutablePointer<redisAsyncContext>?
    private var pending = FIFOQueue<Pending>()
    private(set) var wantsRead = false
    private(set) var wantsWrite = false
    private var connectDeadline: ContinuousClock.Instant?
    /// Why this side is closing the context, while hiredis fails its commands.
    private var closing: RedisFailure?

    init(address: RedisNodeAddress, timeouts: Timeouts, health: NodeHealth) {
        self.address = address
        self.timeouts = timeouts
        self.health = health
    }

    /// The socket to poll, when connected or connecting.
    var descriptor: Int32? { context.map { $0.pointee.c.fd } }

    /// Whether commands would be written now (the connection is established).
    var isConnected: Bool { context.map { $0.pointee.c.flags & REDIS_CONNECTED != 0 } ?? false }

    /// The earliest moment the loop must look at this connection again.
    var nextDeadline: ContinuousClock.Instant? {
        switch (connectDeadline, pending.first?.deadline) {
        case (let connect?, let command?): min(connect, command)
        case (let connect?, nil): connect
        case (nil, let command?): command
        case (nil, nil): nil
        }
    }

    /// Sends `command`, connecting first when needed; `completion` is called once, on the
    /// loop's thread: at once when the node is in its backoff or cannot be connected to.
    func send(_ command: [UInt8], at now: ContinuousClock.Instant, completion: @escaping Completion) {
        guard health.admits(at: now) else { return completion(.failure(.nodeDown)) }
        if context == nil, let failure = open(at: now) { return completion(.failure(failure)) }
        enqueue(command, deadline: now + timeouts.command, completion: completion)
    }

    /// Closes the connection when its connect or its oldest command is past due.
    func expire(at now: ContinuousClock.Instant) {
        guard context != nil else { return }
        if let connectDeadline, now >= connectDeadline {
            close(.timeout, at: now)
        } else if let oldest = pending.first, now >= oldest.deadline {
            close(.timeout, at: now)
        }
    }

    /// The socket is ready (`poll`'s `revents`).
    func handle(events: Int16) {
        guard let context else { return }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            guard isConnected else {
                redisAsyncHandleRead(context)  // the connect's completion: hiredis's own path
                return handleWrite(events)
            }
            // Read on until the socket is drained (a read that did not fill what it asked
            // for), straight into hiredis's reader (`wi_redis_read.h`), a bounded number of
            // times so that one busy node cannot keep the loop from the others.
            var reads = 0
            while let context = self.context, reads < Self.readsPerPass {
                reads += 1
                let result = wi_redis_read(context, Self.readChunk, Self.largestRead, Self.keptReaderBuffer)
                // End of file or an error: hiredis reads again, finds it, and closes.
                if result == WI_REDIS_READ_HANDLE { redisAsyncHandleRead(context) }
                guard result == WI_REDIS_READ_MORE else { break }
            }
        }
        handleWrite(events)
    }

    /// A read when the size of what comes is not known: hiredis's own.
    static let readChunk = 16 << 10
    /// The most one read asks for, the rest of a larger value coming in later reads.
    static let largestRead = 1 << 20
    /// The reader's buffer is kept between replies while its room is at most this, and
    /// given back after a larger value.
    static let keptReaderBuffer = 1 << 20
    /// Reads of one connection in one pass of the loop.
    static let readsPerPass = 64

    private func handleWrite(_ events: Int16) {
        if let context = self.context, events & Int16(POLLOUT) != 0 { redisAsyncHandleWrite(context) }
    }

    /// Writes what waits in hiredis's buffer without waiting for the next poll.
    func flush() {
        if wantsWrite, isConnected, let context { redisAsyncHandleWrite(context) }
    }

    /// Closes the connection (every command waiting fails with `reason`); the node's health
    /// counts a failure unless the reason is a shutdown.
    func close(_ reason: RedisFailure, at now: ContinuousClock.Instant) {
        guard let context else { return }
        closing = reason
        if reason != .shutdown { health.failed(at: now) }
        redisAsyncFree(context)
    }

    // MARK: Opening

    private func open(at now: ContinuousClock.Instant) -> RedisFailure? {
        guard let context = redisAsyncConnect(address.host, Int32(address.port)) else {
            health.failed(at: now)
            return .connection("out of memory")
        }
        if context.pointee.err != 0 {
            let message = String(cString: context.pointee.errstr)
            redisAsyncFree(context)
            health.failed(at: now)
            return .connection(message)
        }
        // String replies in recycled buffers (``ReplyBuffers``), set before any reply.
        context.pointee.c.reader?.pointee.fn = ReplyBuffers.replyFunctions.assumingMemoryBound(to: redisReplyObjectFunctions.self)
        let me = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.data = me
        context.pointee.ev.data = me
        context.pointee.ev.addRead = { $0.map { RedisConnection.from($0).wantsRead = true } }
        context.pointee.ev.delRead = { $0.map { RedisConnection.from($0).wantsRead = false } }
        context.pointee.ev.addWrite = { $0.map { RedisConnection.from($0).wantsWrite = true } }
        context.pointee.ev.delWrite = { $0.map { RedisConnection.from($0).wantsWrite = false } }
        context.pointee.ev.cleanup = { $0.map { RedisConnection.from($0).contextFreed() } }
        redisAsyncSetConnectCallback(context) { context, status in
            guard let data = context?.pointee.data, status == REDIS_OK else { return }
            RedisConnection.from(data).connectDeadline = nil
        }
        self.context = context
        connectDeadline = now + timeouts.connect
        // AUTH and SELECT go first on the connection; a refusal closes it.
        if let password = address.password {
            var auth = RedisCommand("AUTH")
            auth.append(password)
            enqueue(auth.encoded, deadline: now + timeouts.command, completion: nil)
        }
        if address.database != 0 {
            enqueue(RedisCommand("SELECT", String(address.database)).encoded, deadline: now + timeouts.command, completion: nil)
        }
        return nil
    }

    private static func from(_ pointer: UnsafeMutableRawPointer) -> RedisConnection {
        Unmanaged<RedisConnection>.fromOpaque(pointer).takeUnretainedValue()
    }

    // MARK: Commands and replies

    private func enqueue(_ command: [UInt8], deadline: ContinuousClock.Instant, completion: Completion?) {
        guard let context else {
            completion?(.failure(closing ?? .connection("not connected")))
            return
        }
        pending.append(Pending(deadline: deadline, completion: completion))
        let me = Unmanaged.passUnretained(self).toOpaque()
        let status = command.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                redisAsyncFormattedCommand(
                    context,
                    { context, reply, data in
                        guard let data else { return }
                        RedisConnection.from(data).replied(reply, context: context)
                    }, me, text.baseAddress, text.count)
            }
        }
        if status != REDIS_OK {
            // Not queued by hiredis (the context is closing): no callback will come.
            _ = pending.removeLast()
            completion?(.failure(closing ?? .connection("the connection is closing")))
        }
    }

    /// hiredis's reply callback: replies come in the order the commands were sent, and a
    /// closing context calls back once per command still waiting, with no reply.
    private func replied(_ reply: UnsafeMutableRawPointer?, context: UnsafeMutablePointer<redisAsyncContext>?) {
        guard let waiting = pending.popFirst() else { return }
        guard let reply else {
            let reason = closing ?? .connection(context.map { String(cString: $0.pointee.errstr) } ?? "closed")
            waiting.completion?(.failure(reason))
            return
        }
        let value = RedisReply(takingBufferOf: reply.assumingMemoryBound(to: redisReply.self))
        guard let completion = waiting.completion else {
            // The connection's own AUTH or SELECT.
            if case .error(let message) = value, let context = self.context {
                closing = .refused(message)
                health.failed(at: .now)
                redisAsyncFree(context)  // deferred by hiredis until this callback returns
            }
            return
        }
        health.succeeded()
        completion(.success(value))
    }

    /// hiredis is freeing the context (this side closed it, or the connection broke or
    /// never opened): it has already failed every waiting command.
    private func contextFreed() {
        if closing == nil { health.failed(at: .now) }
        closing = nil
        context = nil
        connectDeadline = nil
        wantsRead = false
        wantsWrite = false
        while let left = pending.popFirst() { left.completion?(.failure(.connection("closed"))) }
    }
}
