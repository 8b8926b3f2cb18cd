/// What kind of link a usable route goes through.
public enum NetworkInterfaceKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An Ethernet device backed by hardware.
    case wired
    /// A Wi-Fi device (one with a wireless extension or an 802.11 PHY).
    case wireless
    /// A mobile broadband (WWAN) device.
    case cellular
    /// A tunnel: WireGuard, tun/tap with no hardware, IP-in-IP, GRE, PPP.
    case tunnel
    /// A software Ethernet device with no hardware behind it: veth (a container's usual
    /// `eth0`), bridge, bond, dummy, macvlan.
    case virtual
    /// The loopback device. The network as a whole is never reachable through it; only a
    /// host whose address is local reports it.
    case loopback
    /// A link of a type not named above.
    case other

    public var description: String { rawValue }
}
