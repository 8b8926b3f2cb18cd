import Foundation

/// The bytes a disk cache writer stores for a key: derivable from the writer's tag and
/// the key alone, so the tests can tell a whole value from a torn or mixed one. Shared
/// by the tests and the `webimage-cache-writer` process.
public enum Payload {
    public static func bytes(tag: String, key: String, minimum: Int, spread: Int) -> Data {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(tag)|\(key)".utf8 { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let count = minimum + Int(seed % UInt64(max(spread, 1)))
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
            var state = seed
            for index in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                raw[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return data
    }
}
