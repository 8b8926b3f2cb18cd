/// One netlink message: its header fields and the bytes after the header.
struct NetlinkMessage: Sendable, Equatable {
    var type: UInt16
    var flags: UInt16
    var sequence: UInt32
    var payload: [UInt8]
}

/// The numbers of the kernel's netlink ABI the parser needs (linux/netlink.h,
/// linux/rtnetlink.h, linux/if.h). They are part of the kernel's stable ABI.
enum Netlink {
    static let headerLength = 16
    static let done: UInt16 = 3
    static let error: UInt16 = 2
    static let overrun: UInt16 = 4
    static let newLink: UInt16 = 16
    static let deleteLink: UInt16 = 17
    static let getLink: UInt16 = 18
    static let newRoute: UInt16 = 24
    static let deleteRoute: UInt16 = 25
    static let getRoute: UInt16 = 26
    /// NLM_F_MULTI: part of a multi-part reply (a dump), ended by ``done``.
    static let multiFlag: UInt16 = 0x2
    /// NLM_F_DUMP_INTR: the tables changed during the dump; it may be inconsistent.
    static let dumpInterruptedFlag: UInt16 = 0x10

    /// NLMSG_ALIGN and RTA_ALIGN: 4 bytes.
    static func aligned(_ length: Int) -> Int { (length + 3) & ~3 }
}

/// Splits a datagram read from a netlink socket into messages.
enum NetlinkMessageParser {
    /// The messages of `bytes`, in order. Linear in `bytes.count`.
    ///
    /// - Throws: ``ReachabilityError/malformedMessage(_:)`` when a length is shorter than
    ///   a header or runs past the bytes.
    static func messages(in bytes: [UInt8]) throws(ReachabilityError) -> [NetlinkMessage] {
        var messages: [NetlinkMessage] = []
        var offset = 0
        while bytes.count - offset >= Netlink.headerLength {
            let length = Int(bytes.loadUInt32(at: offset))
            guard length >= Netlink.headerLength, length <= bytes.count - offset else {
                throw .malformedMessage("message at byte \(offset) claims \(length) bytes of \(bytes.count - offset)")
            }
            messages.append(
                NetlinkMessage(
                    type: bytes.loadUInt16(at: offset + 4), flags: bytes.loadUInt16(at: offset + 6),
                    sequence: bytes.loadUInt32(at: offset + 8),
                    payload: Array(bytes[(offset + Netlink.headerLength)..<(offset + length)])))
            offset += Netlink.aligned(length)
        }
        guard offset >= bytes.count else {
            throw .malformedMessage("\(bytes.count - offset) bytes left over, shorter than a header")
        }
        return messages
    }

    /// The negative errno of an NLMSG_ERROR message (0 is an acknowledgement).
    static func errorCode(of message: NetlinkMessage) throws(ReachabilityError) -> Int32 {
        guard message.payload.count >= 4 else { throw .malformedMessage("error message of \(message.payload.count) bytes") }
        return Int32(bitPattern: message.payload.loadUInt32(at: 0))
    }
}

/// Route attributes (struct rtattr: 16-bit length, 16-bit type, then the value, each
/// aligned to 4 bytes) after a fixed header.
struct NetlinkAttribute: Equatable {
    var type: UInt16
    var value: ArraySlice<UInt8>

    /// The attributes of `bytes` from `start`. Linear in the byte count.
    static func attributes(in bytes: [UInt8], from start: Int) throws(ReachabilityError) -> [NetlinkAttribute] {
        var attributes: [NetlinkAttribute] = []
        var offset = start
        while bytes.count - offset >= 4 {
            let length = Int(bytes.loadUInt16(at: offset))
            guard length >= 4, length <= bytes.count - offset else {
                throw .malformedMessage("attribute at byte \(offset) claims \(length) bytes of \(bytes.count - offset)")
            }
            // The kernel sets NLA_F_NESTED and NLA_F_NET_BYTEORDER in the top bits.
            let type = bytes.loadUInt16(at: offset + 2) & 0x3FFF
            attributes.append(NetlinkAttribute(type: type, value: bytes[(offset + 4)..<(offset + length)]))
            offset += Netlink.aligned(length)
        }
        return attributes
    }

    /// A 32-bit value in host byte order, or `nil` when the value is shorter.
    var uint32: UInt32? {
        guard value.count >= 4 else { return nil }
        return Array(value).loadUInt32(at: 0)
    }

    /// A NUL-terminated string.
    var string: String {
        String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension [UInt8] {
    /// The 16-bit value at `offset` in host byte order (netlink's order); the caller
    /// checked the bounds.
    func loadUInt16(at offset: Int) -> UInt16 {
        withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
    }

    /// The 32-bit value at `offset` in host byte order; the caller checked the bounds.
    func loadUInt32(at offset: Int) -> UInt32 {
        withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
