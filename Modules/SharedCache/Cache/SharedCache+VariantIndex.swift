import Foundation
import WebImageCore

extension SharedCache: VariantIndexing {
    /// Adds `variant` to the source's index, a Redis set on the source's own node, and
    /// renews the set's TTL to ``Configuration/timeToLive`` (so it outlives the variants
    /// it lists, which each carry at most that TTL).
    public func recordVariant(_ variant: CacheKey, ofSource source: CacheKey) async {
        let command = RedisCommand(
            "EVAL", "redis.call('SADD', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1", "1",
            indexKey(source), variant.string, String(max(1, configuration.timeToLive.milliseconds)))
        _ = await client.send(command, to: nodeIndex(for: source))
    }

    /// Reads and removes the source's index and its entry in one script on the source's
    /// node, then unlinks the variants on their nodes, each node's in batches of 1,000
    /// keys, the nodes at once. A variant whose node is down stays until its TTL ends.
    @discardableResult
    public func purgeSource(_ source: CacheKey) async -> Int? {
        let script = """
            local members = redis.call('SMEMBERS', KEYS[1])
            redis.call('UNLINK', KEYS[1], KEYS[2])
            return members
            """
        let reply = await client.send(
            RedisCommand("EVAL", script, "2", indexKey(source), valueKey(source)), to: nodeIndex(for: source))
        guard case .success(.array(let members)) = reply else { return nil }
        var byNode: [Int: [String]] = [:]
        for case .bulk(let member) in members {
            let variant = CacheKey(String(decoding: member, as: UTF8.self))
            byNode[nodeIndex(for: variant), default: []].append(valueKey(variant))
        }
        await withTaskGroup(of: Void.self) { group in
            for (node, keys) in byNode {
                group.addTask { [client] in
                    for start in stride(from: 0, to: keys.count, by: 1000) {
                        var command = RedisCommand("UNLINK")
                        for key in keys[start..<min(start + 1000, keys.count)] { command.append(key) }
                        _ = await client.send(command, to: node)
                    }
                }
            }
        }
        return members.count
    }

    /// The key of the set of variants made from `source`.
    func indexKey(_ source: CacheKey) -> String { configuration.keyPrefix + "v:" + source.string }
}
