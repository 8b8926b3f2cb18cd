import Testing
import WebImageCore

@testable import WebImageReachability

@Suite("Reachability: the status from the tables")
struct ReachabilityEvaluationTests {
    static let upRunning: UInt32 = 0x1_0041
    static let loopback = LinkMessage(index: 1, name: "lo", flags: upRunning | 0x8, hardwareType: 772)
    static let wired = LinkMessage(index: 2, name: "eth0", flags: upRunning)
    static let wireless = LinkMessage(index: 3, name: "wlan0", flags: upRunning)
    static let downWired = LinkMessage(index: 4, name: "eth1", flags: 0x1003)

    /// Kinds by name, as sysfs would tell them.
    static func kind(_ link: LinkMessage) -> NetworkInterfaceKind {
        ["eth0": .wired, "eth1": .wired, "wlan0": .wireless, "lo": .loopback][link.name] ?? .other
    }

    static func links(_ links: LinkMessage...) -> [Int32: LinkMessage] {
        Dictionary(uniqueKeysWithValues: links.map { ($0.index, $0) })
    }

    func status(_ links: [Int32: LinkMessage], _ routes: [RouteMessage]) -> NetworkReachabilityStatus {
        ReachabilityEvaluation.networkStatus(links: links, routes: routes, kind: Self.kind)
    }

    @Test("a default route through a link that is up and running: reachable through that link's kind")
    func reachable() {
        let routes = [
            RouteMessage(destinationLength: 24, outputInterfaces: [3]), RouteMessage(destinationLength: 0, outputInterfaces: [2]),
        ]
        #expect(status(Self.links(Self.loopback, Self.wired, Self.wireless), routes) == .reachable(.wired))
    }

    @Test("no default route, or one through a link that is down or has no carrier: unreachable")
    func unreachable() {
        let links = Self.links(Self.loopback, Self.wired, Self.downWired)
        #expect(status(links, [RouteMessage(destinationLength: 24, outputInterfaces: [2])]) == .unreachable)
        #expect(status(links, [RouteMessage(destinationLength: 0, outputInterfaces: [4])]) == .unreachable)
        #expect(status(links, [RouteMessage(destinationLength: 0, outputInterfaces: [9])]) == .unreachable, "a link not in the table")
        #expect(status(links, []) == .unreachable)
    }

    @Test("loopback alone is not the network; nor are local-table, blackhole or unreachable routes")
    func notTheNetwork() {
        let links = Self.links(Self.loopback, Self.wired)
        #expect(status(links, [RouteMessage(destinationLength: 0, outputInterfaces: [1])]) == .unreachable)
        #expect(status(links, [RouteMessage(destinationLength: 0, table: 255, outputInterfaces: [2])]) == .unreachable)
        #expect(status(links, [RouteMessage(destinationLength: 0, type: 6, outputInterfaces: [2])]) == .unreachable)
        #expect(status(links, [RouteMessage(destinationLength: 0, type: 7, outputInterfaces: [2])]) == .unreachable)
    }

    @Test("of two usable default routes, the lower metric decides the kind; IPv6 counts as well")
    func lowestMetric() {
        let links = Self.links(Self.wired, Self.wireless)
        let routes = [
            RouteMessage(destinationLength: 0, outputInterfaces: [2], priority: 600),
            RouteMessage(family: 10, destinationLength: 0, outputInterfaces: [3], priority: 100),
        ]
        #expect(status(links, routes) == .reachable(.wireless))
        #expect(status(links, routes.reversed()) == .reachable(.wireless))
    }

    @Test("a multipath default route is usable while one of its next hops is")
    func multipath() {
        let links = Self.links(Self.downWired, Self.wireless)
        #expect(status(links, [RouteMessage(destinationLength: 0, outputInterfaces: [4, 3])]) == .reachable(.wireless))
        #expect(status(Self.links(Self.downWired), [RouteMessage(destinationLength: 0, outputInterfaces: [4, 3])]) == .unreachable)
    }

    @Test("a host: its first address with a usable route decides; a local address is reachable through loopback")
    func host() {
        let links = Self.links(Self.loopback, Self.wired, Self.downWired)
        func host(_ routes: [RouteMessage?]) -> NetworkReachabilityStatus {
            ReachabilityEvaluation.hostStatus(routes: routes, links: links, kind: Self.kind)
        }
        #expect(host([nil, RouteMessage(destinationLength: 32, outputInterfaces: [2])]) == .reachable(.wired))
        #expect(host([RouteMessage(destinationLength: 32, outputInterfaces: [4])]) == .unreachable)
        #expect(host([RouteMessage(destinationLength: 32, table: 255, type: 2, outputInterfaces: [1])]) == .reachable(.loopback))
        #expect(host([nil, nil]) == .unreachable)
        #expect(host([]) == .unreachable)
    }

    @Test("the status reads as the program prints it")
    func descriptions() {
        #expect(NetworkReachabilityStatus.unknown.description == "unknown")
        #expect(NetworkReachabilityStatus.unreachable.description == "unreachable")
        #expect(NetworkReachabilityStatus.reachable(.virtual).description == "reachable(virtual)")
        #expect(NetworkReachabilityStatus.reachable(.virtual).isReachable)
        #expect(!NetworkReachabilityStatus.unknown.isReachable)
    }
}
