internal import CWebImageSharedCache

/// A 64-bit checksum of an entry's bytes, checked before any entry is used: a value cut
/// short, overwritten by another program or damaged on the way is a miss, never a wrong
/// image. XXH3's kind of construction (products of 32-bit halves over 32-byte stripes,
/// keys that change with the stripe's place in its 512-byte block), computed in C with
/// AVX2 or SSE2 where the machine has them: a 50 KB value takes under 2 microseconds,
/// where a scalar loop took a tenth of a shared hit. The value is the same on every
/// platform. It guards against accidents, not an attacker who can write to the nodes.
enum EntryChecksum {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        // An empty buffer may have no address: the C loops read nothing at length 0.
        wi_entry_checksum(bytes.baseAddress, bytes.count)
    }

    /// The portable loop's value, which the vector versions must equal.
    static func portable(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        wi_entry_checksum_portable(bytes.baseAddress, bytes.count)
    }
}
