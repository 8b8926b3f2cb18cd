import WebImageCore

/// The decode options the decoder harnesses use: small limits, so that the fuzzer
/// explores parsers instead of timing out on allocating and filling huge canvases.
enum FuzzDecodeOptions {
    /// 1 Mi pixels (4 MiB of RGBA) over all frames: larger headers fail with
    /// `.tooLarge`, which is itself a path worth fuzzing.
    static let maxPixelCount = 1 << 20

    /// Full size, RGBA, every frame, under the fuzz limit.
    static let full = DecodeOptions(maxPixelCount: maxPixelCount)

    /// A second set of options chosen from the input: downsampling, gray output,
    /// orientation applied, first frame only, in any mix.
    static func variant(for bytes: some Sequence<UInt8>) -> DecodeOptions {
        var random = FuzzRandom(seededBy: bytes)
        return DecodeOptions(
            maxPixelSize: random.oneIn(3) ? nil : random.next(in: 1...96),
            maxPixelCount: maxPixelCount,
            firstFrameOnly: random.oneIn(2),
            pixelFormat: random.oneIn(2) ? .gray8 : .rgba8,
            appliesOrientation: random.oneIn(2)
        )
    }
}
