import Foundation
import WebImageCore

extension SharedCache {
    /// What one node holds for the tier, and how it is doing.
    public struct NodeStatistics: Sendable, CustomStringConvertible {
        public let address: RedisNodeAddress
        /// Whether the node answered.
        public let isReachable: Bool
        /// Entries under the key prefix, and the bytes of their values.
        public let entries: Int
        public let bytes: Int
        /// The node's whole memory use and limit (`INFO memory`; 0 for no limit) and what it
        /// does at the limit (`maxmemory-policy`): `noeviction` makes stores fail, an `lru`
        /// or `lfu` policy evicts entries, which are then misses.
        public let usedMemory: Int?
        public let maximumMemory: Int?
        public let evictionPolicy: String?
        /// Why the node did not answer.
        public let failure: String?

        public var description: String {
            guard isReachable else { return "\(address): unreachable (\(failure ?? "no answer"))" }
            return "\(address): \(entries) entries, \(bytes) bytes"
        }
    }

    /// Each node's entries and memory, asked now (a `SCAN` of the tier's keys: for an
    /// operator's look, not a hot path). Waits on the calling thread.
    public func statisticsNow() -> [NodeStatistics] {
        configuration.nodes.indices.map { node in
            let address = configuration.nodes[node]
            let info: String
            switch client.sendAndWait(RedisCommand("INFO", "memory"), to: node) {
            case .success(.bulk(let text)):
                info = String(decoding: text, as: UTF8.self)
            case .success(let other):
                return Self.unreachable(address, "\(other)")
            case .failure(let failure):
                return Self.unreachable(address, failure.description)
            }
            var entries = 0
            var bytes = 0
            scanKeys(on: node, matching: Self.globEscaped(configuration.keyPrefix) + "e:*") { keys in
                entries += keys.count
                for key in keys {
                    var command = RedisCommand("STRLEN")
                    command.append(key)
                    if case .success(.integer(let length)) = client.sendAndWait(command, to: node) { bytes += Int(length) }
                }
            }
            let fields = Self.infoFields(info)
            return NodeStatistics(
                address: address, isReachable: true, entries: entries, bytes: bytes, usedMemory: fields["used_memory"].flatMap { Int($0) },
                maximumMemory: fields["maxmemory"].flatMap { Int($0) }, evictionPolicy: fields["maxmemory_policy"], failure: nil)
        }
    }

    /// ``statisticsNow()`` off the caller's thread.
    public func statistics() async -> [NodeStatistics] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.statisticsNow()) }.start()
        }
    }

    private static func unreachable(_ address: RedisNodeAddress, _ failure: String) -> NodeStatistics {
        NodeStatistics(
            address: address, isReachable: false, entries: 0, bytes: 0, usedMemory: nil, maximumMemory: nil, evictionPolicy: nil,
            failure: failure)
    }

    /// `INFO`'s `name:value` lines.
    static func infoFields(_ info: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in info.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        return fields
    }
}
