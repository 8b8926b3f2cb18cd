import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

extension SharedCache {
    public func lookup(forKey key: CacheKey, coalescing: Bool) async -> SharedCacheLookup {
        let node = nodeIndex(for: key)
        switch await read(key, on: node) {
        case .found(let response): return .hit(response)
        case .unavailable: return .miss(leased: false)
        case .absent: break
        }
        guard coalescing, configuration.coalescesMisses else { return .miss(leased: false) }

        // Miss: take the lease, or wait for the member that holds it. Each turn reads the
        // value and, when it is still absent, tries the lease in one script, atomic on the
        // node: a holder that stored and released between a plain read and a lease attempt
        // would otherwise be followed by a second fetch. A lease that expired (its holder
        // died) is taken over on the next turn.
        let started = ContinuousClock.now
        // A little past the lease, so that a waiter sees a lease that expired unreleased
        // (its holder died) and takes over rather than giving up on the same instant.
        let waitLimit = configuration.leaseDuration * 1.25 + .milliseconds(100)
        var interval = configuration.pollInterval
        let token = UUID().uuidString
        // Counted among the lease waits from the first time the lease is found taken
        // until the lookup returns.
        var isWaiting = false
        defer { if isWaiting { countLeaseWait(-1) } }
        while true {
            let askedAt = ContinuousClock.now
            let reply = await client.send(valueOrLeaseCommand(key, token: token), to: node)
            switch reply {
            case .success(.integer(1)):
                leases.withLock { $0[key] = token }
                return .miss(leased: true)
            case .success(.integer(0)):
                // Held by another member.
                if !isWaiting {
                    isWaiting = true
                    countLeaseWait(1)
                }
            case .success(.bulk):
                switch interpret(reply, key: key, node: node) {
                case .found(let response): return .hit(response)
                case .absent: continue  // garbage, now deleted: try the lease again
                case .unavailable: return .miss(leased: false)
                }
            default:
                return .miss(leased: false)  // an error reply, or the node failed
            }
            // Judged by when the node was asked, not when its answer came: on a loaded
            // machine an answer may arrive long after the lease it describes expired, and
            // the next turn, asked after that, takes the lease over.
            guard askedAt - started < waitLimit else { return .miss(leased: false) }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return .miss(leased: false)
            }
            interval = min(interval * 3 / 2, .milliseconds(100))
        }
    }

    public func releaseLease(forKey key: CacheKey) async {
        guard let token = leases.withLock({ $0.removeValue(forKey: key) }) else { return }
        _ = await client.send(releaseCommand(key, token: token), to: nodeIndex(for: key))
    }

    enum Read {
        case found(CachedResponse)
        case absent
        case unavailable
    }

    /// The entry for `key`; a value that is not a whole entry is deleted and is a miss.
    func read(_ key: CacheKey, on node: Int) async -> Read {
        interpret(await client.send(RedisCommand("GET", valueKey(key)), to: node), key: key, node: node)
    }

    func interpret(_ result: Result<RedisReply, RedisFailure>, key: CacheKey, node: Int) -> Read {
        switch result {
        case .success(.bulk(let value)):
            if let response = SharedEntryFormat.decode(value) { return .found(response) }
            // Garbage (another program's value, a damaged write): gone, so the next
            // store replaces it and no one reads it again.
            client.send(RedisCommand("DEL", valueKey(key)), to: node) { _ in }
            return .absent
        case .success(.null):
            return .absent
        default:
            return .unavailable
        }
    }

    /// The value when there is one (a bulk reply); else `SET lease NX PX`: 1 when taken,
    /// 0 when another member holds it.
    private func valueOrLeaseCommand(_ key: CacheKey, token: String) -> RedisCommand {
        RedisCommand(
            "EVAL",
            """
            local value = redis.call('GET', KEYS[1])
            if value then return value end
            if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
            return 0
            """, "2", valueKey(key), leaseKey(key), token, String(max(1, configuration.leaseDuration.milliseconds)))
    }

    /// Deletes the lease only if it is still this member's (it may have expired and been
    /// taken by another): compared and deleted in one script, atomically on the node.
    func releaseCommand(_ key: CacheKey, token: String) -> RedisCommand {
        RedisCommand(
            "EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", "1",
            leaseKey(key), token)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
