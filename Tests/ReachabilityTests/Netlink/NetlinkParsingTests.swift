import Testing

@testable import WebImageReachability

@Suite("Reachability: netlink messages from bytes")
struct NetlinkParsingTests {
    typealias Bytes = NetlinkBytes

    @Test("a datagram splits into its messages, each padded to 4 bytes")
    func splitsMessages() throws {
        let first = Bytes.message(type: Netlink.newLink, flags: Netlink.multiFlag, sequence: 7, payload: [1, 2, 3])
        let second = Bytes.message(type: Netlink.done, sequence: 7, payload: Bytes.uint32(0))
        let messages = try NetlinkMessageParser.messages(in: first + second)
        #expect(messages.count == 2)
        #expect(messages[0] == NetlinkMessage(type: Netlink.newLink, flags: Netlink.multiFlag, sequence: 7, payload: [1, 2, 3]))
        #expect(messages[1].type == Netlink.done)
        #expect(try NetlinkMessageParser.messages(in: []).isEmpty)
    }

    @Test(
        "a length that runs past the datagram, or is shorter than a header, or bytes left over is a typed error",
        arguments: [
            Bytes.uint32(64) + [UInt8](repeating: 0, count: 12),
            Bytes.uint32(8) + [UInt8](repeating: 0, count: 12),
            Bytes.message(type: Netlink.done, payload: []) + [1, 2, 3],
        ])
    func malformedDatagram(bytes: [UInt8]) {
        #expect(throws: ReachabilityError.self) { try NetlinkMessageParser.messages(in: bytes) }
    }

    @Test("an error message carries the negative errno; too short a one is malformed")
    func errorCode() throws {
        let message = try NetlinkMessageParser.messages(
            in: Bytes.message(type: Netlink.error, payload: Bytes.uint32(UInt32(bitPattern: -101))))[0]
        #expect(try NetlinkMessageParser.errorCode(of: message) == -101)
        #expect(throws: ReachabilityError.self) {
            try NetlinkMessageParser.errorCode(of: NetlinkMessage(type: Netlink.error, flags: 0, sequence: 0, payload: [0]))
        }
    }

    @Test("a link: index, flags, name and hardware type")
    func link() throws {
        let link = try LinkMessage(payload: Bytes.link(index: 3, flags: 0x1_0043, name: "wlan0"))
        #expect(link == LinkMessage(index: 3, name: "wlan0", flags: 0x1_0043))
        #expect(link.isUpAndRunning)
        #expect(!link.isLoopback)
        #expect(!(try LinkMessage(payload: Bytes.link(index: 3, flags: 0x1003, name: "eth0"))).isUpAndRunning, "up without carrier")
        #expect(!(try LinkMessage(payload: Bytes.link(index: 3, flags: 0x1_0040, name: "eth0"))).isUpAndRunning, "carrier but down")
        #expect(throws: ReachabilityError.self) { try LinkMessage(payload: [0, 0, 1]) }
    }

    @Test("a route: destination length, table (RTA_TABLE wins), type, output link and metric")
    func route() throws {
        let payload = Bytes.route(
            destinationLength: 0, table: 252,
            attributes: [
                Bytes.attribute(15, Bytes.uint32(1000)), Bytes.attribute(4, Bytes.uint32(2)), Bytes.attribute(6, Bytes.uint32(600)),
            ])
        let route = try RouteMessage(payload: payload)
        #expect(route == RouteMessage(destinationLength: 0, table: 1000, outputInterfaces: [2], priority: 600))
    }

    @Test("a multipath route goes through each of its next hops")
    func multipath() throws {
        let payload = Bytes.route(family: 10, destinationLength: 0, attributes: [Bytes.attribute(9, Bytes.nextHops([4, 5]))])
        let route = try RouteMessage(payload: payload)
        #expect(route.outputInterfaces == [4, 5])
        #expect(route.family == 10)
    }

    @Test(
        "an attribute or next hop that claims more bytes than there are is a typed error",
        arguments: [
            Bytes.route(destinationLength: 0, attributes: [Bytes.uint16(40) + Bytes.uint16(4) + Bytes.uint32(2)]),
            Bytes.route(destinationLength: 0, attributes: [Bytes.attribute(9, Bytes.uint16(99) + [0, 0] + Bytes.uint32(4))]),
            [2, 0, 0],
        ])
    func malformedRoute(payload: [UInt8]) {
        #expect(throws: ReachabilityError.self) { try RouteMessage(payload: payload) }
    }

    @Test("the kernel's high attribute bits (nested, byte order) do not hide the type")
    func attributeFlagBits() throws {
        let attributes = try NetlinkAttribute.attributes(in: Bytes.attribute(0x8000 | 4, Bytes.uint32(9)), from: 0)
        #expect(attributes.map(\.type) == [4])
        #expect(attributes.first?.uint32 == 9)
    }
}
