import Foundation

/// Cuts data into random small slices, as a network would deliver it.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    public mutating func next() -> UInt64 {
        // SplitMix64: tiny, fast and good enough for choosing slice sizes.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Data {
    /// The data cut into consecutive slices of 1 to `maxSlice` bytes.
    public func randomSlices(maxSlice: Int, seed: UInt64) -> [Data] {
        var generator = SeededRandom(seed: seed)
        var slices: [Data] = []
        var offset = startIndex
        while offset < endIndex {
            let length = Int.random(in: 1...maxSlice, using: &generator)
            let end = Swift.min(endIndex, offset + length)
            slices.append(self[offset..<end])
            offset = end
        }
        return slices
    }
}
