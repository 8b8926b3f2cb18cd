import ArgumentParser
import WebImageSharedCache

/// `--shared-cache redis://HOST:PORT[,redis://...]`: the fleet's shared tier on Redis
/// nodes, between the disk cache and the network (`fetch`), or the tier to look into
/// (`cache stats`).
struct SharedCacheOption: ParsableArguments {
    @Option(
        name: .customLong("shared-cache"),
        help: ArgumentHelp(
            "A cache tier shared with other servers, on these Redis nodes (comma-separated redis:// URLs).",
            valueName: "redis://host:port,..."))
    var nodes: String?

    func validate() throws {
        guard let nodes else { return }
        do {
            if try RedisNodeAddress.list(nodes).isEmpty { throw ValidationError("--shared-cache lists no node") }
        } catch let error as SharedCacheError {
            throw ValidationError("--shared-cache: \(error.message)")
        }
    }

    /// The tier, when the flag was given.
    func sharedCache() throws -> SharedCache? {
        guard let nodes else { return nil }
        return try SharedCache(nodes: nodes)
    }
}
