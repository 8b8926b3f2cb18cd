import Foundation

/// The fuzz targets, by the name `WEBIMAGE_FUZZ_TARGET` and the replay program use.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case png, jpeg, gif, webp, avif, incremental, sniff, headers, icc

    /// Runs one input through this target's harness. Returns what the library did with
    /// it; a broken invariant stops the process instead.
    public func run(_ data: Data) -> FuzzOutcome {
        switch self {
        case .png: PNGHarness.run(data)
        case .jpeg: JPEGHarness.run(data)
        case .gif: GIFHarness.run(data)
        case .webp: WebPHarness.run(data)
        case .avif: AVIFHarness.run(data)
        case .incremental: IncrementalHarness.run(data)
        case .sniff: SniffHarness.run(data)
        case .headers: HeadersHarness.run(data)
        case .icc: ICCHarness.run(data)
        }
    }

    /// The pixel limit the decoding harnesses give the library (over all frames): a
    /// file needing more is refused with `.tooLarge`.
    public static var decodePixelLimit: Int { FuzzDecodeOptions.maxPixelCount }

    /// The names, for usage messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
