import Foundation
import Testing
import WebImageTestSupport

/// `webimage reachability --watch --json` inside a namespace the test made, while the
/// test takes the link and the default route away and brings them back: each change must
/// be printed within a second of the `ip` command that made it.
@Suite(
    "Reachability in network namespaces: status changes", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: NetworkNamespaces.unavailableReason == nil, Comment(rawValue: NetworkNamespaces.unavailableReason ?? "")))
struct NamespaceReachabilityTests {
    static let reachable = #"{"status":"reachable","interface":"virtual","host":null}"#
    static let unreachable = #"{"status":"unreachable","interface":null,"host":null}"#

    @Test("link down, link up, route deleted, route added, carrier lost and back: each status line arrives within 1 s")
    func watchedChanges() async throws {
        let namespaces = try NetworkNamespaces()
        defer { namespaces.remove() }
        let watcher = try ChildProcess(
            namespaces.command(in: namespaces.client, [try BuiltExecutable.locate("webimage").path, "reachability", "--watch", "--json"]))
        defer { watcher.stop() }

        // The first line is the status at start: the program read the tables before printing.
        #expect(try await watcher.standardOutput.next(within: .seconds(20)) == Self.reachable)
        // The kernel itself reports a lost carrier up to 1 s late (linkwatch runs non-urgent
        // carrier changes at most once a second), so that step gets 1 s more; the other
        // changes are reported at once.
        let steps: [(change: String, act: () throws -> Void, expected: String, limit: Duration)] = [
            ("client link down", { try namespaces.setClientLink(up: false) }, Self.unreachable, .seconds(1)),
            (
                "client link up, default route added again",
                {
                    try namespaces.setClientLink(up: true)
                    try namespaces.addDefaultRoute()
                }, Self.reachable, .seconds(1)
            ),
            ("default route deleted", { try namespaces.deleteDefaultRoute() }, Self.unreachable, .seconds(1)),
            ("default route added", { try namespaces.addDefaultRoute() }, Self.reachable, .seconds(1)),
            ("server's end of the veth down (no carrier)", { try namespaces.setServerLink(up: false) }, Self.unreachable, .seconds(2)),
            ("server's end up again", { try namespaces.setServerLink(up: true) }, Self.reachable, .seconds(1)),
        ]
        // The limits are the program's; the test adds slack for its own scheduling, which
        // in the whole parallel suite on two cores was seen to add over 3 s (on an idle
        // machine each line arrives within milliseconds).
        let slack = Duration.seconds(5)
        for step in steps {
            try step.act()
            let changed = ContinuousClock.now
            let line = try await watcher.standardOutput.next(within: step.limit + slack)
            #expect(line == step.expected, "after: \(step.change)")
            #expect(ContinuousClock.now - changed < step.limit + slack, "after: \(step.change)")
        }
    }

    @Test("--host: a host reached through the default route follows it")
    func watchedHost() async throws {
        let namespaces = try NetworkNamespaces()
        defer { namespaces.remove() }
        let host = NetworkNamespaces.serverAddress
        let watcher = try ChildProcess(
            namespaces.command(
                in: namespaces.client, [try BuiltExecutable.locate("webimage").path, "reachability", "--watch", "--json", "--host", host]))
        defer { watcher.stop() }
        let reachable = #"{"status":"reachable","interface":"virtual","host":"\#(host)"}"#
        let unreachable = #"{"status":"unreachable","interface":null,"host":"\#(host)"}"#

        #expect(try await watcher.standardOutput.next(within: .seconds(20)) == reachable)
        try namespaces.deleteDefaultRoute()
        // 1 s is the program's bound; 5 s more for the test's own scheduling under load.
        #expect(try await watcher.standardOutput.next(within: .seconds(6)) == unreachable)
        try namespaces.addDefaultRoute()
        #expect(try await watcher.standardOutput.next(within: .seconds(6)) == reachable)
    }

    @Test("without --watch: one status, exit status 0 when reachable and 1 when not")
    func oneShot() async throws {
        let namespaces = try NetworkNamespaces()
        defer { namespaces.remove() }
        let webimage = try BuiltExecutable.locate("webimage").path

        let reachable = try ChildProcess(namespaces.command(in: namespaces.client, [webimage, "reachability"]))
        defer { reachable.stop() }
        #expect(try await reachable.standardOutput.next(within: .seconds(20)) == "reachable(virtual)")
        #expect(try await reachable.exitStatus(within: .seconds(20)) == 0)

        try namespaces.deleteDefaultRoute()
        let unreachable = try ChildProcess(namespaces.command(in: namespaces.client, [webimage, "reachability", "--host", "192.0.2.9"]))
        defer { unreachable.stop() }
        #expect(try await unreachable.standardOutput.next(within: .seconds(20)) == "192.0.2.9: unreachable")
        #expect(try await unreachable.exitStatus(within: .seconds(20)) == 1)
    }
}
