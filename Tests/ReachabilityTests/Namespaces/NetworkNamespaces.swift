import Foundation
import WebImageTestSupport

/// Two network namespaces the test makes (root only), joined by a veth pair, with
/// addresses from TEST-NET-1 (192.0.2.0/24, reserved for documentation: nothing real
/// answers there, and nothing leaves these namespaces):
///
///     client  veth "wic" 192.0.2.1/30  ----  veth "wis" 192.0.2.2/30  server
///             default via 192.0.2.2                  lo also has 192.0.2.9/32
///
/// So the client reaches 192.0.2.9 only through its default route: deleting that route
/// makes the network unreachable there, and the peer link going down takes the carrier
/// away. ``remove()`` deletes both (the veth pair goes with them); call it in a `defer`.
final class NetworkNamespaces {
    struct CommandFailed: Error, CustomStringConvertible {
        let description: String
    }

    static let serverAddress = "192.0.2.9"
    let client: String
    let server: String

    /// Why namespaces cannot be made here (not root, no `ip`, a sandbox without
    /// CAP_SYS_ADMIN), or `nil` when they can: tried once per test process.
    static let unavailableReason: String? = {
        guard FileManager.default.isExecutableFile(atPath: ipPath) else {
            return "`ip` (iproute2) not found: the network namespace tests are skipped"
        }
        let probe = "wi-reach-\(getpid())-probe"
        guard (try? ip(["netns", "add", probe])) != nil else {
            return "cannot make a network namespace (`ip netns add` needs root): the network namespace tests are skipped"
        }
        _ = try? ip(["netns", "del", probe])
        return nil
    }()

    /// python3, whose http.server serves the loads (on PATH, as the test process sees it).
    static let python: String? =
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private static let ipPath =
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/sbin/ip"
    private static let counter = LockedCounter()

    /// Makes the two namespaces and the link between them. On failure, what was made is
    /// removed before the error is thrown.
    init() throws {
        let base = "wi-reach-\(getpid())-\(Self.counter.next())"
        client = base + "-c"
        server = base + "-s"
        do {
            try Self.ip(["netns", "add", client])
            try Self.ip(["netns", "add", server])
            try Self.ip(["link", "add", "wic", "netns", client, "type", "veth", "peer", "name", "wis", "netns", server])
            try inClient(["addr", "add", "192.0.2.1/30", "dev", "wic"])
            try inServer(["addr", "add", "192.0.2.2/30", "dev", "wis"])
            try inServer(["addr", "add", "\(Self.serverAddress)/32", "dev", "lo"])
            for (namespace, link) in [(client, "lo"), (client, "wic"), (server, "lo"), (server, "wis")] {
                try Self.ip(["-n", namespace, "link", "set", link, "up"])
            }
            try addDefaultRoute()
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes both namespaces (and with them the veth pair and every address).
    func remove() {
        _ = try? Self.ip(["netns", "del", client])
        _ = try? Self.ip(["netns", "del", server])
    }

    func addDefaultRoute() throws { try inClient(["route", "add", "default", "via", "192.0.2.2"]) }
    func deleteDefaultRoute() throws { try inClient(["route", "del", "default"]) }
    /// The client's end of the veth, administratively: down also removes the routes
    /// through it (the default route must be added again after up).
    func setClientLink(up: Bool) throws { try inClient(["link", "set", "wic", up ? "up" : "down"]) }
    /// The server's end of the veth: down takes the client's carrier away.
    func setServerLink(up: Bool) throws { try inServer(["link", "set", "wis", up ? "up" : "down"]) }

    func inClient(_ arguments: [String]) throws { try Self.ip(["-n", client] + arguments) }
    func inServer(_ arguments: [String]) throws { try Self.ip(["-n", server] + arguments) }

    /// A program and its arguments.
    struct Command {
        let executable: String
        let arguments: [String]
    }

    /// The command that runs `arguments` inside `namespace` (`ip netns exec`, which execs
    /// the program in place: its pid is the program's, so terminating it stops the program).
    func command(in namespace: String, _ arguments: [String]) -> Command {
        Command(executable: Self.ipPath, arguments: ["netns", "exec", namespace] + arguments)
    }

    /// Runs `ip arguments...` to its end.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let finished = try ExternalProgram.finish(ipPath, arguments)
        guard finished.status == 0 else {
            throw CommandFailed(description: "ip \(arguments.joined(separator: " ")): \(finished.errors)")
        }
        return finished.output
    }
}

/// Numbers namespaces made by one test process.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
