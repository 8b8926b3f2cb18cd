/// An IPv4 or IPv6 address, as connected to or written in a URL, and what kind of
/// network it belongs to.
///
/// ``URLPolicy`` refuses addresses by their ``Scope``: a server that fetches URLs its
/// users give must not be talked into fetching from itself or its private network.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// The address of `bytes`: 4 (IPv4) or 16 (IPv6) of them; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Reads dotted IPv4 (`192.0.2.1`, exactly four decimal parts) or IPv6 text
    /// (`::1`, `fe80::1`, `::ffff:192.0.2.1`; brackets and a `%zone` are allowed and
    /// dropped). Anything else, host names included, is `nil`.
    public init?(_ text: some StringProtocol) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        if let v4 = Self.parseIPv4(text) {
            bytes = v4
        } else if let v6 = Self.parseIPv6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for index in stride(from: 0, to: 16, by: 2) {
            groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }

    /// What kind of network an address belongs to, by the IANA special-purpose registries.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Routable on the internet.
        case `public`
        /// This host: 127.0.0.0/8, ::1.
        case loopback
        /// Private networks: 10/8, 172.16/12, 192.168/16 (RFC 1918).
        case `private`
        /// Carrier-grade NAT's shared space, 100.64/10 (RFC 6598): private in practice.
        case sharedAddressSpace
        /// 169.254/16 (where cloud metadata services live), fe80::/10.
        case linkLocal
        /// IPv6 unique-local addresses, fc00::/7: IPv6's private networks.
        case uniqueLocal
        /// 224/4, ff00::/8.
        case multicast
        /// 0.0.0.0/8 ("this network": connecting to 0.0.0.0 reaches this host), ::.
        case unspecified
        /// 240/4 and the broadcast address; IETF protocol assignments 192.0.0/24;
        /// documentation and benchmarking ranges; discard-only 100::/64. Not routable.
        case reserved
        /// An IPv4 address inside IPv6: mapped (::ffff:0:0/96), compatible (::/96),
        /// NAT64 (64:ff9b::/96), 6to4 (2002::/16) or Teredo (2001::/32). Refused as a
        /// whole rather than trusted by the IPv4 address inside.
        case ipv4Embedded
    }

    /// The network this address belongs to.
    public var scope: Scope {
        isIPv4 ? Self.scopeOfIPv4(bytes) : Self.scopeOfIPv6(bytes)
    }

    private static func scopeOfIPv4(_ b: [UInt8]) -> Scope {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return .unspecified
        case (127, _, _): return .loopback
        case (10, _, _), (172, 16...31, _), (192, 168, _): return .private
        case (100, 64...127, _): return .sharedAddressSpace
        case (169, 254, _): return .linkLocal
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved
        case (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113), (198, 18...19, _): return .reserved
        default: return .public
        }
    }

    private static func scopeOfIPv6(_ b: [UInt8]) -> Scope {
        let firstTen = b[0..<10].allSatisfy { $0 == 0 }
        if firstTen, b[10] == 0, b[11] == 0 {
            if b[12..<15].allSatisfy({ $0 == 0 }) {
                if b[15] == 0 { return .unspecified }
                if b[15] == 1 { return .loopback }
            }
            return .ipv4Embedded
        }
        if firstTen, b[10] == 0xff, b[11] == 0xff { return .ipv4Embedded }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b { return .ipv4Embedded }
        if b[0] == 0x20, b[1] == 0x02 { return .ipv4Embedded }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0, b[3] == 0 { return .ipv4Embedded }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return .reserved }
        if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { return .reserved }
        if b[0] == 0xff { return .multicast }
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 { return .linkLocal }
        if b[0] & 0xfe == 0xfc { return .uniqueLocal }
        return .public
    }

    // MARK: Parsing

    private static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            // Decimal only, as browsers' URL parsers do not: no octal or hex forms, which
            // would let "0177.0.0.1" mean one thing here and another to a resolver.
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part.count == 1 || part.first != "0", let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.contains(":"), text.count <= 45 else { return nil }
        let gaps = text.ranges(of: "::")
        guard gaps.count <= 1 else { return nil }
        let halves = gaps.first.map { [text[..<$0.lowerBound], text[$0.upperBound...]] } ?? [text]
        func groups(_ part: Substring, allowsIPv4Tail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            var bytes: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if allowsIPv4Tail, index == pieces.count - 1, piece.contains(".") {
                    guard let v4 = parseIPv4(piece) else { return nil }
                    bytes += v4
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xff)]
            }
            return bytes
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], allowsIPv4Tail: true), all.count == 16 else { return nil }
            return all
        }
        guard let head = groups(halves[0], allowsIPv4Tail: false), let tail = groups(halves[1], allowsIPv4Tail: true),
            head.count + tail.count <= 14
        else { return nil }
        return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
