import NIOCore
import NIOHTTP1
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one response is: a head, then a body made one of a few ways.
struct ResponsePlan {
    enum Body {
        /// No body (HEAD, 204, 304; or an empty one).
        case none
        /// These bytes, then the end.
        case buffer(ByteBuffer)
        /// `count` pattern bytes (byte i = i % 251), then `ending`.
        case pattern(count: Int, then: Ending)
        /// `total` bytes, `chunk` at a time, one chunk every `interval`: from `source` when
        /// given, else pattern bytes.
        case drip(total: Int, chunk: Int, interval: TimeAmount, source: ByteBuffer? = nil)
        /// `first` of `total` pattern bytes, then nothing until the test opens `gate`
        /// (``LoopbackServer/openGate(_:)``), then the rest and the end.
        case gated(total: Int, first: Int, gate: String)
    }

    enum Ending {
        /// The response ends properly (keep-alive permitting, the connection stays).
        case end
        /// Nothing more is sent and the connection stays open.
        case stall
        /// The connection is reset (RST; on HTTP/2 the stream is reset).
        case reset
        /// The connection is closed cleanly without ending the response (HTTP/2: the
        /// stream is ended, short).
        case close
    }

    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: Body
    /// Wait this long before sending the head.
    var delay: TimeAmount?
    /// Send nothing until the test opens this gate (``LoopbackServer/openGate(_:)``).
    var gate: String?
    /// Instead of the head and body: raw bytes no HTTP encoder would write, then the
    /// connection closes (the flood goes on for `duration` first). HTTP/1 only.
    var hostile: (reply: HostileReply, duration: TimeAmount)?

    init(status: HTTPResponseStatus, headers: HTTPHeaders = HTTPHeaders(), body: Body = .none, delay: TimeAmount? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A small text body with its length and type.
    static func text(_ status: HTTPResponseStatus, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> ResponsePlan {
        var headers = headers
        var buffer = ByteBufferAllocator().buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        headers.add(name: "content-type", value: "text/plain; charset=utf-8")
        headers.add(name: "content-length", value: String(buffer.readableBytes))
        return ResponsePlan(status: status, headers: headers, body: .buffer(buffer))
    }
}

/// Serves HTTP requests: one instance per HTTP/1.1 connection (requests in turn, the
/// pipelining handler before it holds back the next one until a response ends), or
/// per HTTP/2 stream.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private let connection: ConnectionInfo
    private let isHTTP2: Bool

    private var head: HTTPRequestHead?
    private var keepAlive = true
    private var isActive = true
    /// A pattern body being written as the channel takes it.
    private var pump: (next: Int, end: Int, ending: ResponsePlan.Ending)?
    private var scheduled: Scheduled<Void>?

    init(core: ServerCore, connection: ConnectionInfo, isHTTP2: Bool) {
        self.core = core
        self.connection = connection
        self.isHTTP2 = isHTTP2
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.keepAlive = self.isHTTP2 || head.isKeepAlive
            if self.core.recordsRequests {
                self.core.record(RecordedRequest(head: head, isHTTP2: self.isHTTP2, connectionID: self.connection.id))
            }
            // A client that waits for "100 Continue" before its body (curl does for
            // large uploads) is told to go on at once; the body is read and dropped.
            if !self.isHTTP2, head.version.minor >= 1,
                head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
            {
                context.writeAndFlush(self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            let plan = Routes.plan(
                for: head,
                core: self.core,
                connection: self.connection,
                isHTTP2: self.isHTTP2
            )
            if let gate = plan.gate {
                let loop = context.eventLoop
                let bound = NIOLoopBound((self, context), eventLoop: loop)
                self.core.whenGateOpens(gate) {
                    loop.execute {
                        let (handler, context) = bound.value
                        if handler.isActive { handler.send(plan, head: head, context: context) }
                    }
                }
            } else if let delay = plan.delay {
                self.scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                    self.scheduled = nil
                    if self.isActive { self.send(plan, head: head, context: context) }
                }
            } else {
                self.send(plan, head: head, context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.stop()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.stop()
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if self.pump != nil, context.channel.isWritable {
            self.writePump(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func stop() {
        self.isActive = false
        self.pump = nil
        self.scheduled?.cancel()
        self.scheduled = nil
    }

    // MARK: Sending

    private func send(_ plan: ResponsePlan, head request: HTTPRequestHead, context: ChannelHandlerContext) {
        if let hostile = plan.hostile, !self.isHTTP2 {
            self.sendRaw(hostile.reply, for: hostile.duration, context: context)
            return
        }
        var headers = plan.headers
        if !self.isHTTP2 && !self.keepAlive {
            headers.replaceOrAdd(name: "connection", value: "close")
        }
        let version: HTTPVersion = self.isHTTP2 ? .http2 : (request.version == .http1_0 ? .http1_0 : .http1_1)
        context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: version, status: plan.status, headers: headers))), promise: nil)

        if request.method == .HEAD {
            self.finish(.end, context: context)
            return
        }
        switch plan.body {
        case .none:
            self.finish(.end, context: context)
        case .buffer(let buffer):
            if buffer.readableBytes > 0 {
                context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
            self.finish(.end, context: context)
        case .pattern(let count, let ending):
            self.pump = (0, count, ending)
            self.writePump(context: context)
        case .drip(let total, let chunk, let interval, let source):
            context.flush()
            self.drip(sent: 0, total: total, chunk: max(1, chunk), interval: interval, source: source, context: context)
        case .gated(let total, let first, let gate):
            self.sendGated(total: total, first: first, gate: gate, context: context)
        }
    }

    /// The first bytes at once; the rest once the test opens the gate, on this channel's
    /// loop, unless the connection went away meanwhile.
    private func sendGated(total: Int, first: Int, gate: String, context: ChannelHandlerContext) {
        if first > 0 {
            context.write(self.wrapOutboundOut(.body(.byteBuffer(self.core.patternSlice(offset: 0, length: first)))), promise: nil)
        }
        context.flush()
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        self.core.whenGateOpens(gate) {
            loop.execute {
                let (handler, context) = bound.value
                guard handler.isActive else { return }
                handler.pump = (first, total, .end)
                handler.writePump(context: context)
            }
        }
    }

    /// Writes a hostile reply under the HTTP encoder (which would refuse or fix it):
    /// from the encoder's context, so the bytes go straight to TLS or the socket.
    private func sendRaw(_ reply: HostileReply, for duration: TimeAmount, context: ChannelHandlerContext) {
        guard let raw = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: reply.bytes.count)
        buffer.writeBytes(reply.bytes)
        raw.writeAndFlush(NIOAny(buffer), promise: nil)
        guard reply == .chunkExtensionFlood else {
            raw.close(promise: nil)
            return
        }
        let deadline = NIODeadline.now() + duration
        let loop = context.eventLoop.assumeIsolated()
        func flood() {
            guard self.isActive else { return }
            guard NIODeadline.now() < deadline else {
                raw.close(promise: nil)
                return
            }
            if context.channel.isWritable { raw.writeAndFlush(NIOAny(HostileReply.floodPiece), promise: nil) }
            self.scheduled = loop.scheduleTask(in: .milliseconds(2)) { flood() }
        }
        flood()
    }

    /// Writes pattern bytes while the channel takes them; the rest when it is writable
    /// again.
    private func writePump(context: ChannelHandlerContext) {
        guard var pump = self.pump else { return }
        while pump.next < pump.end && context.channel.isWritable {
            let length = min(ServerCore.patternChunk, pump.end - pump.next)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(self.core.patternSlice(offset: pump.next, length: length)))), promise: nil)
            pump.next += length
        }
        if pump.next < pump.end {
            self.pump = pump
            context.flush()
        } else {
            self.pump = nil
            self.finish(pump.ending, context: context)
        }
    }

    private func drip(sent: Int, total: Int, chunk: Int, interval: TimeAmount, source: ByteBuffer?, context: ChannelHandlerContext) {
        guard sent < total else {
            self.finish(.end, context: context)
            return
        }
        self.scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
            self.scheduled = nil
            guard self.isActive else { return }
            let length = min(chunk, total - sent)
            if let source, let slice = source.getSlice(at: source.readerIndex + sent, length: length) {
                context.write(self.wrapOutboundOut(.body(.byteBuffer(slice))), promise: nil)
                context.flush()
                self.drip(sent: sent + length, total: total, chunk: chunk, interval: interval, source: source, context: context)
                return
            }
            var offset = sent
            while offset < sent + length {
                let piece = min(ServerCore.patternChunk, sent + length - offset)
                context.write(self.wrapOutboundOut(.body(.byteBuffer(self.core.patternSlice(offset: offset, length: piece)))), promise: nil)
                offset += piece
            }
            context.flush()
            self.drip(sent: sent + length, total: total, chunk: chunk, interval: interval, source: nil, context: context)
        }
    }

    private func finish(_ ending: ResponsePlan.Ending, context: ChannelHandlerContext) {
        switch ending {
        case .end:
            if self.keepAlive {
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        case .stall:
            context.flush()
        case .close:
            if self.isHTTP2 {
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer())))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        case .reset:
            // Let the bytes sent so far reach the client before the reset (an RST
            // arriving with unread data can discard it).
            context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer())))).assumeIsolated().whenComplete { _ in
                self.scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(20)) {
                    self.scheduled = nil
                    self.reset(context: context)
                }
            }
        }
    }

    /// HTTP/1.1: SO_LINGER 0 and close, so the kernel sends RST; with TLS the close goes
    /// around the TLS handler (no close_notify). HTTP/2: closing the stream channel
    /// resets the stream.
    private func reset(context: ChannelHandlerContext) {
        if self.isHTTP2 {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        let closeAbruptly = {
            if let tls = try? channel.pipeline.syncOperations.context(handlerType: NIOSSLServerHandler.self) {
                tls.close(promise: nil)
            } else {
                context.close(promise: nil)
            }
        }
        if let provider = channel as? any SocketOptionProvider {
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                closeAbruptly()
            }
        } else {
            closeAbruptly()
        }
    }
}
