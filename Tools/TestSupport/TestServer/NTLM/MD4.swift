/// MD4 (RFC 1320): the NT hash of NTLM is MD4 of the UTF-16LE password. Neither
/// swift-crypto nor OpenSSL 3's default provider offers it, so it is written here; the
/// RFC's test vectors check it (TestServerTests). For the test server only: MD4 is
/// broken and must not protect anything.
enum MD4 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            var x = [UInt32](repeating: 0, count: 16)
            for i in 0..<16 {
                let at = blockStart + i * 4
                x[i] = UInt32(padded[at]) | UInt32(padded[at + 1]) << 8 | UInt32(padded[at + 2]) << 16 | UInt32(padded[at + 3]) << 24
            }
            var (a, b, c, d) = state

            func f(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (~x & z) }
            func g(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (x & z) | (y & z) }
            func h(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { x ^ y ^ z }
            func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 { value << by | value >> (32 - by) }

            // Round 1: [abcd k s] a = (a + F(b,c,d) + X[k]) <<< s.
            for k in stride(from: 0, to: 16, by: 4) {
                a = rotate(a &+ f(b, c, d) &+ x[k], 3)
                d = rotate(d &+ f(a, b, c) &+ x[k + 1], 7)
                c = rotate(c &+ f(d, a, b) &+ x[k + 2], 11)
                b = rotate(b &+ f(c, d, a) &+ x[k + 3], 19)
            }
            // Round 2: a = (a + G(b,c,d) + X[k] + 5A827999) <<< s, k by columns.
            for k in 0..<4 {
                a = rotate(a &+ g(b, c, d) &+ x[k] &+ 0x5a82_7999, 3)
                d = rotate(d &+ g(a, b, c) &+ x[k + 4] &+ 0x5a82_7999, 5)
                c = rotate(c &+ g(d, a, b) &+ x[k + 8] &+ 0x5a82_7999, 9)
                b = rotate(b &+ g(c, d, a) &+ x[k + 12] &+ 0x5a82_7999, 13)
            }
            // Round 3: a = (a + H(b,c,d) + X[k] + 6ED9EBA1) <<< s, k in bit-reversed order.
            for k in [0, 2, 1, 3] {
                a = rotate(a &+ h(b, c, d) &+ x[k] &+ 0x6ed9_eba1, 3)
                d = rotate(d &+ h(a, b, c) &+ x[k + 8] &+ 0x6ed9_eba1, 9)
                c = rotate(c &+ h(d, a, b) &+ x[k + 4] &+ 0x6ed9_eba1, 11)
                b = rotate(b &+ h(c, d, a) &+ x[k + 12] &+ 0x6ed9_eba1, 15)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        var digest: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }
}
