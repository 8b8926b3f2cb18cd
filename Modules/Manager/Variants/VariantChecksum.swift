import Foundation

/// The checksum a stored variant carries over its body: 64 bits, eight bytes a step.
///
/// Each step mixes one word into the state by an xor, a multiply by an odd constant and
/// an xor-shift, all three invertible: so a body that differs in any one word (any one
/// byte, any run of flipped bits within a word) always gives another sum. It guards
/// against damage (a torn write, a flipped disk block, a foreign value), not against an
/// attacker who can write the cache.
enum VariantChecksum {
    static func of(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { of(raw: $0) }
    }

    static func of(raw bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            state = (state ^ word) &* multiplier
            state ^= state >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        state = (state ^ tail) &* multiplier
        return state ^ (state >> 32)
    }
}
