import Foundation
import Testing
import WebImageCore

@Suite("IPAddress: reading addresses and naming their networks")
struct IPAddressTests {
    @Test("dotted IPv4 is read only in its plain decimal form")
    func ipv4() {
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        #expect(IPAddress("255.255.255.255")?.bytes == [255, 255, 255, 255])
        // Forms a resolver may read differently are not addresses here.
        for text in ["0177.0.0.1", "0x7f.0.0.1", "127.1", "2130706433", "1.2.3.256", "1.2.3.4.5", "1..2.3", "", " 1.2.3.4"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test("IPv6 text in its compressed, full, bracketed, zoned and IPv4-tailed forms")
    func ipv6() {
        #expect(IPAddress("::1")?.bytes == Array(repeating: 0, count: 15) + [1])
        #expect(IPAddress("[::1]") == IPAddress("0:0:0:0:0:0:0:1"))
        #expect(IPAddress("fe80::1%eth0") == IPAddress("fe80::1"))
        #expect(IPAddress("::ffff:192.0.2.1")?.bytes == Array(repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1])
        #expect(IPAddress("2001:db8::")?.description == "2001:db8:0:0:0:0:0:0")
        for text in ["1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "::g", "example.com", ":::", "1:2:3:4:5:6:7"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test(
        "each special-purpose range has its scope; anything else is public",
        arguments: [
            ("8.8.8.8", IPAddress.Scope.public), ("93.184.216.34", .public), ("2606:4700::1111", .public),
            ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
            ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
            ("172.32.0.1", .public), ("100.64.0.1", .sharedAddressSpace), ("100.128.0.1", .public),
            ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
            ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
            ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
            ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
            ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.2.7", .reserved), ("2001:db8::1", .reserved),
            ("::ffff:127.0.0.1", .ipv4Embedded), ("::ffff:8.8.8.8", .ipv4Embedded), ("::127.0.0.1", .ipv4Embedded),
            ("64:ff9b::10.0.0.1", .ipv4Embedded), ("2002:7f00:1::", .ipv4Embedded), ("2001:0:4136::1", .ipv4Embedded),
        ])
    func scopes(_ text: String, _ scope: IPAddress.Scope) throws {
        #expect(try #require(IPAddress(text)).scope == scope)
    }
}

@Suite("URLPolicy: which URLs may be fetched")
struct URLPolicyTests {
    func url(_ text: String) -> URL { URL(string: text)! }

    @Test("the default allows http and https to any host; file and data need a policy that names them")
    func defaultSchemes() {
        let standard = URLPolicy.standard
        #expect(standard.violation(for: url("https://127.0.0.1/a.png")) == nil)
        #expect(standard.violation(for: url("http://images.example.com/a.png")) == nil)
        #expect(standard.violation(for: url("file:///etc/passwd"))?.rule == .schemeNotAllowed("file"))
        #expect(standard.violation(for: url("data:,x"))?.rule == .schemeNotAllowed("data"))
        #expect(URLPolicy.unrestricted.violation(for: url("file:///etc/passwd")) == nil)
        #expect(URLPolicy(allowedSchemes: ["HTTPS"]).violation(for: url("HTTPS://a.example/")) == nil, "schemes ignore case")
    }

    @Test("publicOnly refuses a URL naming a non-public address, before any connection")
    func addressesInURLs() {
        let policy = URLPolicy.publicOnly
        #expect(policy.violation(for: url("http://8.8.8.8/a.png")) == nil)
        #expect(policy.violation(for: url("http://images.example.com/a.png")) == nil, "names are checked once resolved")
        let loopback = IPAddress("127.0.0.1")!
        #expect(policy.violation(for: url("http://127.0.0.1:8080/a.png"))?.rule == .nonPublicAddress(loopback, .loopback))
        #expect(policy.violation(for: url("http://[::1]/a.png"))?.rule == .nonPublicAddress(IPAddress("::1")!, .loopback))
        #expect(policy.violation(for: url("http://169.254.169.254/latest/meta-data/"))?.rule.isNonPublic == true)
        #expect(policy.violation(for: url("http://[::ffff:8.8.8.8]/"))?.rule.isNonPublic == true)
        #expect(policy.violation(for: IPAddress("10.0.0.1")!) != nil)
        #expect(URLPolicy.standard.violation(for: IPAddress("10.0.0.1")!) == nil)
    }

    @Test("hosts: an allow list admits only its hosts, a deny list wins over it; patterns cover subdomains")
    func hostLists() {
        let policy = URLPolicy(allowedHosts: ["images.example.com", "*.cdn.example.net"], deniedHosts: ["bad.cdn.example.net"])
        #expect(policy.violation(for: url("https://IMAGES.example.com./a.png")) == nil, "case and a trailing dot do not matter")
        #expect(policy.violation(for: url("https://a.b.cdn.example.net/a.png")) == nil)
        #expect(policy.violation(for: url("https://cdn.example.net/a.png"))?.rule == .hostNotAllowed("cdn.example.net"))
        #expect(policy.violation(for: url("https://evilimages.example.com/"))?.rule == .hostNotAllowed("evilimages.example.com"))
        #expect(
            policy.violation(for: url("https://bad.cdn.example.net/"))?.rule
                == .hostDenied("bad.cdn.example.net", by: "bad.cdn.example.net"))
        #expect(HostPattern("*.example.com").matches("x.example.com"))
        #expect(!HostPattern("*.example.com").matches("example.com"))
        #expect(!HostPattern("*.example.com").matches("xexample.com"))
    }

    @Test("a violation names its rule and the URL")
    func descriptions() {
        let violation = URLPolicy.publicOnly.violation(for: url("http://10.0.0.5/x"))
        #expect(violation?.url == url("http://10.0.0.5/x"))
        #expect(violation?.description == "the address 10.0.0.5 is private, not public")
    }
}

extension URLPolicyViolation.Rule {
    var isNonPublic: Bool {
        if case .nonPublicAddress = self { return true }
        return false
    }
}
