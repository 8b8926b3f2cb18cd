import ArgumentParser
import WebImage

/// `--public-only` and `--allow-host`: the URL policy of a command that loads URLs. The
/// program loads every scheme it reads (`http`, `https`, `file`, `data`, local paths),
/// since the person typing them chose them; these flags narrow the network side.
struct URLPolicyOptions: ParsableArguments {
    @Flag(
        name: .customLong("public-only"),
        help: "Refuse every non-public address (loopback, private, link-local, ...), as resolved and after every redirect.")
    var publicOnly = false

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp("Fetch only from this host (repeatable; *.example.com for every host under it).", valueName: "host"))
    var allowedHosts: [String] = []

    var policy: URLPolicy {
        var policy = URLPolicy.unrestricted
        policy.refusesNonPublicAddresses = publicOnly
        if !allowedHosts.isEmpty { policy.allowedHosts = allowedHosts.map { HostPattern($0) } }
        return policy
    }
}
