/// Netlink messages written byte by byte, as the kernel lays them out (host byte order),
/// for the parser's tests.
enum NetlinkBytes {
    static func uint16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    static func uint32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// Zero bytes up to the next multiple of 4.
    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    /// struct nlmsghdr and `payload`, padded.
    static func message(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 1, payload: [UInt8]) -> [UInt8] {
        padded(uint32(UInt32(16 + payload.count)) + uint16(type) + uint16(flags) + uint32(sequence) + uint32(0) + payload)
    }

    /// struct rtattr and its value, padded.
    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        padded(uint16(UInt16(4 + value.count)) + uint16(type) + value)
    }

    /// An RTM_NEWLINK payload: struct ifinfomsg, then IFLA_IFNAME.
    static func link(index: Int32, flags: UInt32, name: String, hardwareType: UInt16 = 1) -> [UInt8] {
        [0, 0] + uint16(hardwareType) + uint32(UInt32(bitPattern: index)) + uint32(flags) + uint32(0)
            + attribute(3, Array(name.utf8) + [0])
    }

    /// An RTM_NEWROUTE payload: struct rtmsg, then the attributes given.
    static func route(family: UInt8 = 2, destinationLength: UInt8, table: UInt8 = 254, type: UInt8 = 1, attributes: [[UInt8]]) -> [UInt8] {
        [family, destinationLength, 0, 0, table, 3, 0, type] + uint32(0) + attributes.flatMap { $0 }
    }

    /// An RTA_MULTIPATH value: one struct rtnexthop per interface.
    static func nextHops(_ interfaces: [Int32]) -> [UInt8] {
        interfaces.flatMap { uint16(8) + [0, 0] + uint32(UInt32(bitPattern: $0)) }
    }
}
