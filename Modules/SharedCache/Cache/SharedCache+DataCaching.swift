import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

extension SharedCache {
    /// The entry for `key`, waited for on the calling thread; no lease is taken.
    public func response(forKey key: CacheKey) -> CachedResponse? {
        let node = nodeIndex(for: key)
        guard case .found(let response) = interpret(client.sendAndWait(RedisCommand("GET", valueKey(key)), to: node), key: key, node: node)
        else { return nil }
        return response
    }

    /// The entry for `key`, off the caller's thread; no lease is taken.
    public func response(forKey key: CacheKey) async -> CachedResponse? {
        guard case .hit(let response) = await lookup(forKey: key, coalescing: false) else { return nil }
        return response
    }

    public func removeResponse(forKey key: CacheKey) {
        _ = client.sendAndWait(RedisCommand("DEL", valueKey(key)), to: nodeIndex(for: key))
    }

    /// Removes every entry and lease under ``Configuration/keyPrefix`` on every node that
    /// answers (`SCAN` and `UNLINK`, in batches).
    public func removeAll() {
        for node in configuration.nodes.indices {
            scanKeys(on: node, matching: Self.globEscaped(configuration.keyPrefix) + "*") { keys in
                var command = RedisCommand("UNLINK")
                for key in keys { command.append(key) }
                _ = client.sendAndWait(command, to: node)
            }
        }
    }

    /// Nothing to do: every value carries its TTL, and the nodes expire them.
    public func removeExpired() {}

    /// The bytes of the entries on every node that answers (`SCAN` and `STRLEN`: a walk
    /// over the keys, for statistics rather than a hot path).
    public var totalSize: Int { statisticsNow().reduce(0) { $0 + $1.bytes } }

    /// The entries on every node that answers (a `SCAN`, like ``totalSize``).
    public var count: Int { statisticsNow().reduce(0) { $0 + $1.entries } }

    /// Calls `body` with each batch of key names matching `pattern` on `node`.
    func scanKeys(on node: Int, matching pattern: String, _ body: ([Data]) -> Void) {
        var cursor = "0"
        repeat {
            guard
                case .success(.array(let reply)) = client.sendAndWait(
                    RedisCommand("SCAN", cursor, "MATCH", pattern, "COUNT", "1000"), to: node),
                reply.count == 2, case .bulk(let next) = reply[0], case .array(let names) = reply[1]
            else { return }
            let keys = names.compactMap { name -> Data? in
                if case .bulk(let key) = name { return key }
                return nil
            }
            if !keys.isEmpty { body(keys) }
            cursor = String(decoding: next, as: UTF8.self)
        } while cursor != "0"
    }

    /// `text` with glob's special characters escaped, for `SCAN MATCH`.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\^".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
