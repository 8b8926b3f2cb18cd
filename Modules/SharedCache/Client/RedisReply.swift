import CHiredis
import Foundation

/// A reply from a node, copied out of hiredis's reply object (which hiredis frees when
/// the callback returns).
enum RedisReply: Sendable, Equatable {
    case bulk(Data)
    case status(String)
    case error(String)
    case integer(Int64)
    case null
    case array([RedisReply])

    /// The reply to a callback: a bulk string's buffer is taken over rather than copied
    /// (the field is cleared, so hiredis frees only the reply object after the callback),
    /// and goes back to the ``ReplyBuffers`` (where the connection's reader took it) when
    /// the value is dropped.
    init(takingBufferOf reply: UnsafeMutablePointer<redisReply>) {
        guard reply.pointee.type == REDIS_REPLY_STRING, let buffer = reply.pointee.str, reply.pointee.len > 0 else {
            self.init(reply)
            return
        }
        reply.pointee.str = nil
        self = .bulk(Data(bytesNoCopy: buffer, count: reply.pointee.len, deallocator: .custom { bytes, _ in ReplyBuffers.release(bytes) }))
    }

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .bulk(value.str.map { Data(bytes: $0, count: value.len) } ?? Data())
        case REDIS_REPLY_STATUS:
            self = .status(Self.text(value))
        case REDIS_REPLY_ERROR:
            self = .error(Self.text(value))
        case REDIS_REPLY_INTEGER:
            self = .integer(value.integer)
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] { elements.append(RedisReply(element)) }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }

    private static func text(_ reply: redisReply) -> String {
        guard let str = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: str, count: reply.len), as: UTF8.self)
    }
}
