/// A route as RTM_NEWROUTE describes it: what the status computation needs of it.
struct RouteMessage: Sendable, Equatable {
    /// AF_INET (2) or AF_INET6 (10).
    var family: UInt8
    /// The prefix length of the destination: 0 for a default route.
    var destinationLength: UInt8
    /// The routing table (254 main, 255 local); RTA_TABLE wins over the 8-bit field.
    var table: UInt32
    /// RTN_* type: 1 unicast, 2 local, 7 unreachable, 6 blackhole, 8 prohibit.
    var type: UInt8
    /// The links packets leave through: RTA_OIF, or every next hop of RTA_MULTIPATH.
    var outputInterfaces: [Int32]
    /// RTA_PRIORITY (the metric): lower wins.
    var priority: UInt32

    static let unicast: UInt8 = 1
    static let local: UInt8 = 2
    static let localTable: UInt32 = 255

    /// The route of an RTM_NEWROUTE payload: struct rtmsg (12 bytes: family, dst_len,
    /// src_len, tos, table, protocol, scope, type, flags), then attributes (RTA_OIF 4,
    /// RTA_PRIORITY 6, RTA_MULTIPATH 9, RTA_TABLE 15).
    init(payload: [UInt8]) throws(ReachabilityError) {
        guard payload.count >= 12 else { throw .malformedMessage("route message of \(payload.count) bytes") }
        family = payload[0]
        destinationLength = payload[1]
        table = UInt32(payload[4])
        type = payload[7]
        outputInterfaces = []
        priority = 0
        for attribute in try NetlinkAttribute.attributes(in: payload, from: 12) {
            switch attribute.type {
            case 4: if let index = attribute.uint32 { outputInterfaces.append(Int32(bitPattern: index)) }
            case 6: priority = attribute.uint32 ?? 0
            case 15: table = attribute.uint32 ?? table
            case 9: outputInterfaces += try Self.nextHopInterfaces(Array(attribute.value))
            default: break
            }
        }
    }

    init(family: UInt8 = 2, destinationLength: UInt8, table: UInt32 = 254, type: UInt8 = 1, outputInterfaces: [Int32], priority: UInt32 = 0)
    {
        self.family = family
        self.destinationLength = destinationLength
        self.table = table
        self.type = type
        self.outputInterfaces = outputInterfaces
        self.priority = priority
    }

    /// The interfaces of RTA_MULTIPATH's struct rtnexthop list (length 16 bits, flags,
    /// hops, interface index 32 bits, then the hop's own attributes).
    private static func nextHopInterfaces(_ bytes: [UInt8]) throws(ReachabilityError) -> [Int32] {
        var interfaces: [Int32] = []
        var offset = 0
        while bytes.count - offset >= 8 {
            let length = Int(bytes.loadUInt16(at: offset))
            guard length >= 8, length <= bytes.count - offset else {
                throw .malformedMessage("next hop at byte \(offset) claims \(length) bytes of \(bytes.count - offset)")
            }
            interfaces.append(Int32(bitPattern: bytes.loadUInt32(at: offset + 4)))
            offset += Netlink.aligned(length)
        }
        return interfaces
    }
}
