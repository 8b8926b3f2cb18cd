/// Which node holds a key: rendezvous (highest random weight) hashing. Every node gets a
/// score for the key, a hash of the node's identity and the key; the highest wins.
///
/// Adding a node to N moves only the keys the new node now wins, about 1/(N+1) of them,
/// and removing one moves only its own; no virtual nodes or ring to keep. A lookup costs
/// one hash of the key plus one mix per node, which for the handful of nodes of a cache
/// tier is less than a ring search.
public struct RendezvousHashing: Sendable {
    /// The nodes' identities, in the configuration's order.
    public let identities: [String]
    private let seeds: [UInt64]

    public init(identities: [String]) {
        self.identities = identities
        seeds = identities.map { Self.hash($0.utf8) }
    }

    /// The index of the node that holds `key` (nil without nodes).
    public func node(for key: String) -> Int? {
        guard !seeds.isEmpty else { return nil }
        let keyHash = Self.hash(key.utf8)
        var best = 0
        var bestScore: UInt64 = 0
        for (index, seed) in seeds.enumerated() {
            let score = Self.mix(keyHash ^ seed)
            if index == 0 || score > bestScore {
                best = index
                bestScore = score
            }
        }
        return best
    }

    /// 64-bit FNV-1a, then mixed: the identities and keys are short strings.
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return mix(hash)
    }

    /// The splitmix64 finaliser: every input bit reaches every output bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
