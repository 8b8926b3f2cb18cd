import Foundation
import WebImageFixtures

extension Data {
    /// The data cut into consecutive slices of 1 to `maxSlice` bytes, as a network
    /// would deliver it; the same seed cuts the same way.
    public func randomSlices(maxSlice: Int, seed: UInt64) -> [Data] {
        var generator = SeededGenerator(seed: seed)
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
