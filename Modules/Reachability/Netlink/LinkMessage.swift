/// A link (network interface) as RTM_NEWLINK describes it.
struct LinkMessage: Sendable, Equatable {
    /// The interface index routes refer to.
    var index: Int32
    var name: String
    /// IFF_* flags (linux/if.h).
    var flags: UInt32
    /// ARPHRD_* type of the device (1 Ethernet, 772 loopback, 65534 none: tun, WireGuard).
    var hardwareType: UInt16

    static let up: UInt32 = 0x1
    static let loopback: UInt32 = 0x8
    static let running: UInt32 = 0x40
    static let lowerUp: UInt32 = 0x1_0000

    /// Up (administratively) and running (carrier), so packets can leave through it.
    var isUpAndRunning: Bool {
        flags & Self.up != 0 && flags & (Self.running | Self.lowerUp) != 0
    }

    var isLoopback: Bool { flags & Self.loopback != 0 }

    /// The link of an RTM_NEWLINK or RTM_DELLINK payload: struct ifinfomsg (16 bytes:
    /// family, pad, type, index, flags, change), then attributes (IFLA_IFNAME is 3).
    init(payload: [UInt8]) throws(ReachabilityError) {
        guard payload.count >= 16 else { throw .malformedMessage("link message of \(payload.count) bytes") }
        hardwareType = payload.loadUInt16(at: 2)
        index = Int32(bitPattern: payload.loadUInt32(at: 4))
        flags = payload.loadUInt32(at: 8)
        name = try NetlinkAttribute.attributes(in: payload, from: 16).first { $0.type == 3 }?.string ?? ""
    }

    init(index: Int32, name: String, flags: UInt32, hardwareType: UInt16 = 1) {
        self.index = index
        self.name = name
        self.flags = flags
        self.hardwareType = hardwareType
    }
}
