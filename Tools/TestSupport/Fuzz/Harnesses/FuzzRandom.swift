import WebImageFixtures

/// A deterministic source of choices (slice sizes, decode options) drawn from the input
/// itself, so that one input always takes the same path: a crash replays exactly, and
/// libFuzzer's mutations of the bytes also vary the choices.
struct FuzzRandom {
    /// SplitMix64, the fixtures' generator.
    private var generator: SeededGenerator

    /// Seeded with the FNV-1a hash of `bytes`.
    init<Bytes: Sequence<UInt8>>(seededBy bytes: Bytes) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        generator = SeededGenerator(seed: hash)
    }

    mutating func next() -> UInt64 { generator.next() }

    /// A value in `range` (which must not be empty).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }

    /// True about once in `n` draws.
    mutating func oneIn(_ n: Int) -> Bool { next() % UInt64(n) == 0 }
}
