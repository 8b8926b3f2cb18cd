/// A 64-bit checksum of an entry's bytes, checked before any entry is used: a value cut
/// short, overwritten by another program or damaged on the way is a miss, never a wrong
/// image. Four independent multiply-rotate lanes over 8-byte words, so it runs at memory
/// speed (a 50 KB value costs a few microseconds); it guards against accidents, not an
/// attacker who can write to the nodes.
enum EntryChecksum {
    private static let prime1: UInt64 = 0x9e37_79b1_85eb_ca87
    private static let prime2: UInt64 = 0xc2b2_ae3d_27d4_eb4f
    private static let prime3: UInt64 = 0x1656_67b1_9e37_79f9

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
        var offset = 0
        while offset + 32 <= count {
            lanes.0 = round(lanes.0, word(bytes, offset))
            lanes.1 = round(lanes.1, word(bytes, offset + 8))
            lanes.2 = round(lanes.2, word(bytes, offset + 16))
            lanes.3 = round(lanes.3, word(bytes, offset + 24))
            offset += 32
        }
        var hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
        hash = hash &+ UInt64(count)
        while offset + 8 <= count {
            hash = rotate(hash ^ round(0, word(bytes, offset)), 27) &* prime1 &+ prime3
            offset += 8
        }
        while offset < count {
            hash = rotate(hash ^ (UInt64(bytes[offset]) &* prime3), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
