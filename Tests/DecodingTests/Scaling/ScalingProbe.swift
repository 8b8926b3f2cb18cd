import Foundation
import Testing
import WebImageCore
import WebImageDecoding

#if canImport(Glibc)
    import Glibc
#endif

/// Measures whether a decoder's work per input byte stays flat as one structure of the
/// file is repeated more: a hostile file must not turn a decode into a hang.
///
/// A case decodes a file with the structure repeated a few times (`small`) and one with
/// it repeated many times (`large`), and compares the CPU time each costs per input
/// byte. Linear work keeps the ratio near 1 (below it, as fixed costs spread over more
/// bytes); quadratic work makes it about `large / small` times the structure count,
/// 100x and more here. The bound is loose on purpose, so a busy machine never fails
/// it: the tight figures are in `make bench`.
enum ScalingProbe {
    /// How much more a byte of the large file may cost than a byte of the small one.
    static let allowedGrowth = 10.0

    /// CPU time of the calling thread, in seconds: other tests running beside this one
    /// do not count.
    static func threadCPUTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The least CPU time `body` took over `rounds` runs.
    static func cpuSeconds(rounds: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = threadCPUTime()
            body()
            best = min(best, threadCPUTime() - start)
        }
        return best
    }

    /// Decodes `small` and `large` with `decode`, checks each outcome with `check`, and
    /// expects the large file's cost per byte within ``allowedGrowth`` of the small one's.
    static func expectLinear(
        _ name: String, small: Data, large: Data,
        decode: (Data) -> Result<DecodedImage, ImageDecodingError>,
        check: (Result<DecodedImage, ImageDecodingError>) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        check(decode(small))
        check(decode(large))
        // The large file runs once: a quadratic path would take minutes, not rounds.
        let smallSeconds = cpuSeconds(rounds: 5) { _ = decode(small) }
        let largeSeconds = cpuSeconds(rounds: 1) { _ = decode(large) }
        let smallPerByte = max(smallSeconds, 1e-6) / Double(small.count)
        let largePerByte = largeSeconds / Double(large.count)
        let growth = largePerByte / smallPerByte
        #expect(
            growth <= allowedGrowth,
            "\(name): \(Int(largePerByte * 1e9)) ns/byte at \(large.count) bytes against \(Int(smallPerByte * 1e9)) ns/byte at \(small.count) bytes (\(String(format: "%.1f", growth))x)",
            sourceLocation: sourceLocation
        )
    }

    /// The whole file at once.
    static func oneShot(_ decoder: any ImageDecoding) -> (Data) -> Result<DecodedImage, ImageDecodingError> {
        { data in Result { () throws(ImageDecodingError) in try decoder.decode(data, options: .default) } }
    }

    /// The file in slices of `slice` bytes, a partial image taken whenever the revision
    /// moved (as the progressive loader does), then finished.
    static func incremental(_ decoder: any ImageDecoding, slice: Int) -> (Data) -> Result<DecodedImage, ImageDecodingError> {
        { data in
            Result { () throws(ImageDecodingError) in
                let incremental = decoder.makeIncrementalDecoder(options: .default)
                var revision = incremental.revision
                var offset = data.startIndex
                while offset < data.endIndex {
                    let end = min(data.endIndex, offset + slice)
                    try incremental.append(data[offset..<end])
                    offset = end
                    if incremental.revision != revision {
                        revision = incremental.revision
                        _ = try incremental.partialImage()
                    }
                }
                return try incremental.finish()
            }
        }
    }

    /// A check that the file decodes to `size`.
    static func decodes(to size: PixelSize, frames: Int = 1, sourceLocation: SourceLocation = #_sourceLocation)
        -> (Result<DecodedImage, ImageDecodingError>) -> Void
    {
        { result in
            switch result {
            case .success(let image):
                #expect(image.size == size && image.frames.count == frames, sourceLocation: sourceLocation)
            case .failure(let error):
                Issue.record("expected a \(size) image, got \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A check that the file is refused with `code`.
    static func fails(with code: ImageDecodingError.Code, sourceLocation: SourceLocation = #_sourceLocation)
        -> (Result<DecodedImage, ImageDecodingError>) -> Void
    {
        { result in
            switch result {
            case .success(let image):
                Issue.record("expected \(code), got a \(image.size) image", sourceLocation: sourceLocation)
            case .failure(let error):
                #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            }
        }
    }
}
