import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

extension SharedCache {
    /// Stores the entry with its TTL (see ``Configuration/timeToLive``), then ends this
    /// member's lease on the key, if it holds one.
    ///
    /// - Throws: `CacheError.entryTooLarge` above ``Configuration/maximumEntrySize``;
    ///   `CacheError.writeFailed` when the node failed or refused (out of memory under
    ///   `maxmemory` with `noeviction`, say). The lease is given up either way.
    public func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) async throws(CacheError) {
        let node = nodeIndex(for: key)
        let outcome: Result<Void, CacheError>
        switch Result(catching: { () throws(CacheError) in try storeCommand(data, metadata: metadata, key: key) }) {
        case .success(let command?):
            outcome = Self.stored(await client.send(command, to: node), node: configuration.nodes[node])
        case .success(nil):
            outcome = .success(())  // already past its freshness: nothing worth keeping
        case .failure(let error):
            outcome = .failure(error)
        }
        await releaseLease(forKey: key)
        try outcome.get()
    }

    public func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
        let node = nodeIndex(for: key)
        defer {
            if let token = leases.withLock({ $0.removeValue(forKey: key) }) {
                _ = client.sendAndWait(releaseCommand(key, token: token), to: node)
            }
        }
        guard let command = try storeCommand(data, metadata: metadata, key: key) else { return }
        try Self.stored(client.sendAndWait(command, to: node), node: configuration.nodes[node]).get()
    }

    /// `SET value PX ttl`, or `nil` when the entry would expire at once.
    private func storeCommand(_ data: Data, metadata: CachedResponseMetadata, key: CacheKey) throws(CacheError) -> RedisCommand? {
        let value = SharedEntryFormat.encode(data, metadata: metadata)
        guard value.count <= configuration.maximumEntrySize else {
            throw CacheError(
                .entryTooLarge, "\(value.count) bytes is above the shared cache's limit of \(configuration.maximumEntrySize)")
        }
        let lifetime = timeToLive(for: metadata)
        guard lifetime > 0 else { return nil }
        var command = RedisCommand("SET", valueKey(key))
        command.append(value)
        command.append("PX")
        command.append(String(lifetime))
        return command
    }

    /// The value's TTL in milliseconds: the configured one, shortened to the response's
    /// `max-age` when it has no validator to be revalidated with after that.
    func timeToLive(for metadata: CachedResponseMetadata) -> Int64 {
        let configured = max(1, configuration.timeToLive.milliseconds)
        guard metadata.etag == nil, metadata.lastModified == nil, let maxAge = metadata.maxAge else { return configured }
        let age = Int64(Date().timeIntervalSince(metadata.storedAt) * 1000)
        return min(configured, Int64(maxAge) * 1000 - max(0, age))
    }

    private static func stored(_ result: Result<RedisReply, RedisFailure>, node: RedisNodeAddress) -> Result<Void, CacheError> {
        switch result {
        case .success(.status):
            return .success(())
        case .success(.error(let message)):
            return .failure(CacheError(.writeFailed, "\(node) refused the entry: \(message)"))
        case .success(let other):
            return .failure(CacheError(.writeFailed, "\(node) answered \(other) to SET"))
        case .failure(let failure):
            return .failure(CacheError(.writeFailed, "\(node): \(failure)"))
        }
    }
}
