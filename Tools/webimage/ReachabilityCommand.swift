import ArgumentParser
import Foundation
import WebImage

/// `webimage reachability [--watch] [--host HOST] [--json]`: whether the network (or a
/// host) is reachable, from the kernel's routing tables, once or as it changes.
struct ReachabilityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reachability",
        abstract: "Print whether the network (or a host) is reachable, once or each time it changes.",
        discussion: """
            The status is unknown, unreachable, or reachable(KIND), KIND being the kind \
            of link the route goes through: wired, wireless, cellular, tunnel, virtual \
            (veth, bridge: a container's eth0), loopback (a local host only) or other. \
            The network is reachable when a default route goes through a link that is up \
            and running and not loopback; with --host, when the kernel has such a route \
            to one of the host's addresses (a name that does not resolve is unreachable).

            With --watch the current status is printed first, then each change, until \
            SIGINT or SIGTERM (exit status 0). Without it, one status is printed and the \
            exit status is 0 when reachable, 1 otherwise.

            With --json each status is one JSON object per line, with the keys status \
            (unknown, unreachable, reachable), interface (the kind, or null) and host \
            (the --host given, or null).
            """
    )

    @Flag(help: "Print the status, then each change, until interrupted.")
    var watch = false

    @Option(help: ArgumentHelp("Report whether this host (name or address) is reachable instead.", valueName: "host"))
    var host: String?

    @Flag(help: "Print one JSON object per status instead of a line of text.")
    var json = false

    func validate() throws {
        if let host, host.isEmpty { throw ValidationError("--host needs a host name or address") }
    }

    func run() async throws {
        // Installed first, so a signal during the start-up is not lost.
        let signals = watch ? TerminationSignals() : nil
        let monitor: NetworkReachabilityMonitor
        do { monitor = try NetworkReachabilityMonitor() } catch {
            Console.note("webimage reachability: \(error)")
            throw ExitCode.failure
        }
        defer { monitor.stop() }

        let (host, json) = (self.host, self.json)
        guard let signals else {
            let status = if let host { try await monitor.status(ofHost: host) } else { monitor.currentStatus }
            Console.line(Self.line(for: status, host: host, json: json))
            if !status.isReachable { throw ExitCode.failure }
            return
        }
        let statuses = try Self.statuses(of: monitor, host: host)
        let printing = Task {
            for await status in statuses { Console.line(Self.line(for: status, host: host, json: json)) }
        }
        _ = await signals.next()
        monitor.stop()
        // A host's sequence does not end with the monitor: cancelling ends the loop.
        printing.cancel()
        await printing.value
    }

    /// The network's statuses, or the host's, as they change.
    private static func statuses(of monitor: NetworkReachabilityMonitor, host: String?) throws -> AsyncStream<NetworkReachabilityStatus> {
        guard let host else { return monitor.statuses }
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkReachabilityStatus.self)
        let observation = try monitor.observe(host: host, delivery: .immediate) { continuation.yield($0) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// One line of output: `reachable(wired)` (`HOST: ...` with --host), or JSON.
    static func line(for status: NetworkReachabilityStatus, host: String?, json: Bool) -> String {
        guard json else { return host.map { "\($0): \(status)" } ?? status.description }
        let (name, kind): (String, NetworkInterfaceKind?) =
            switch status {
            case .unknown: ("unknown", nil)
            case .unreachable: ("unreachable", nil)
            case .reachable(let kind): ("reachable", kind)
            }
        let object: JSONValue = .object([
            ("status", .string(name)), ("interface", kind.map { .string($0.rawValue) } ?? .null),
            ("host", host.map { .string($0) } ?? .null),
        ])
        return object.serialized
    }
}
