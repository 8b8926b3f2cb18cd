import Foundation
import Testing
import WebImageFixtures
import WebImageTestSupport

/// A load through the whole pipeline (`webimage fetch --wait-for-network`) in the client
/// namespace, from an HTTP server in the server namespace (python3's http.server, bound
/// to 192.0.2.9), while the test takes the network away and brings it back.
@Suite(
    "Reachability in network namespaces: loads wait for the network", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: NetworkNamespaces.unavailableReason == nil, Comment(rawValue: NetworkNamespaces.unavailableReason ?? "")),
    .enabled(if: NetworkNamespaces.python != nil, "python3 not found: the namespace load tests are skipped"))
struct NamespaceLoadTests {
    static let port = 8080
    static var url: String { "http://\(NetworkNamespaces.serverAddress):\(port)/badge.png" }

    @Test("a load that failed while the link was down is tried again after link up, and succeeds")
    func retriedAfterLinkUp() async throws {
        try await withServer { namespaces in
            // No carrier: the route stays, but nothing answers ARP, so the connect fails
            // (after the kernel's 3 s of neighbour solicitations) while the status is unreachable.
            try namespaces.setServerLink(up: false)
            let fetch = try ChildProcess(
                namespaces.command(
                    in: namespaces.client,
                    [try BuiltExecutable.locate("webimage").path, "fetch", "--json", "--no-disk-cache", "--wait-for-network", Self.url]))
            defer { fetch.stop() }
            // The first attempt failed and the load now waits for the network: the manager's
            // load event, with the load's URL and the reachability status behind the wait.
            let waiting = try await fetch.standardError.line(containing: "waiting for the network to retry", within: .seconds(30))
            #expect(waiting.contains(Self.url))
            #expect(waiting.contains("network unreachable"), "\(waiting)")
            try namespaces.setServerLink(up: true)
            // The wait's end is its own event, once, when the link is back.
            let ended = try await fetch.standardError.line(containing: "stopped waiting for the network", within: .seconds(30))
            #expect(ended.hasSuffix("\(Self.url): network back"), "\(ended)")

            #expect(try await fetch.exitStatus(within: .seconds(30)) == 0, "\(fetch.standardError.seen)")
            let line = try #require(try await fetch.standardOutput.next(within: .seconds(5)))
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(report["source"] as? String == "network")
            #expect(report["httpStatus"] as? Int == 200)
            #expect(report["width"] as? Int == 64)
            #expect(report["error"] is NSNull)
            #expect(fetch.standardError.seen.filter { $0.contains("waiting for the network to retry") }.count == 1)
        }
    }

    @Test("a refused connection while the network is reachable (the server is down, not the network) fails at once")
    func refusedWhileReachable() async throws {
        let namespaces = try NetworkNamespaces()
        defer { namespaces.remove() }
        let fetch = try ChildProcess(
            namespaces.command(
                in: namespaces.client,
                [try BuiltExecutable.locate("webimage").path, "fetch", "--json", "--no-disk-cache", "--wait-for-network", Self.url]))
        defer { fetch.stop() }
        #expect(try await fetch.exitStatus(within: .seconds(30)) != 0)
        #expect(!fetch.standardError.seen.contains { $0.contains("waiting for the network") })
    }

    /// Namespaces with python3's http.server serving a 64x48 PNG at 192.0.2.9:8080 in the
    /// server namespace; all stopped and removed at the end, also on failure.
    private func withServer(_ body: (NetworkNamespaces) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-reach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try PNGFixtureEncoder().encode(SyntheticImage.translucent(width: 64, height: 48)).write(
            to: folder.appendingPathComponent("badge.png"))

        let namespaces = try NetworkNamespaces()
        defer { namespaces.remove() }
        let server = try ChildProcess(
            namespaces.command(
                in: namespaces.server,
                [
                    try #require(NetworkNamespaces.python), "-u", "-m", "http.server", "\(Self.port)", "--bind",
                    NetworkNamespaces.serverAddress,
                    "--directory", folder.path,
                ]))
        defer { server.stop() }
        _ = try await server.standardOutput.line(containing: "Serving HTTP", within: .seconds(20))
        try await body(namespaces)
    }
}
