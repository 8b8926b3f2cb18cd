import Foundation
import WebImageCore

/// The kind of a link, from what sysfs says of it (/sys/class/net/NAME), as seen from the
/// calling process's network namespace.
enum InterfaceKindLookup {
    /// ARPHRD_* values (linux/if_arp.h) that mean a tunnel.
    private static let tunnelTypes: Set<UInt16> = [512, 768, 769, 776, 778, 823, 65534]

    /// The kind of `link`: a Wi-Fi PHY or wireless extension means wireless; a WWAN
    /// device (or raw IP, ARPHRD 519) cellular; an Ethernet type with a hardware device
    /// behind it wired, without one virtual; tunnel types tunnel.
    static func kind(of link: LinkMessage, sysfs root: String = "/sys/class/net") -> NetworkInterfaceKind {
        if link.isLoopback || link.hardwareType == 772 { return .loopback }
        let directory = "\(root)/\(link.name)"
        let files = FileManager.default
        if !link.name.isEmpty, !link.name.contains("/") {
            if files.fileExists(atPath: "\(directory)/wireless") || files.fileExists(atPath: "\(directory)/phy80211") {
                return .wireless
            }
            let deviceType = (try? String(contentsOfFile: "\(directory)/uevent", encoding: .utf8)) ?? ""
            if deviceType.contains("DEVTYPE=wwan") { return .cellular }
        }
        if link.hardwareType == 519 { return .cellular }
        if tunnelTypes.contains(link.hardwareType) { return .tunnel }
        if link.hardwareType == 1 {
            // Hardware devices have a `device` link to their bus; veth, bridges, bonds
            // and dummies live under /sys/devices/virtual and have none.
            return files.fileExists(atPath: "\(directory)/device") ? .wired : .virtual
        }
        return .other
    }
}
