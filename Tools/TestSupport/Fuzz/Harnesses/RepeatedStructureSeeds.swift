import Foundation
import WebImageAVIF
import WebImageCore
import WebImageFixtures

/// Seeds for the image targets, made at run time and never stored: the scaling tests'
/// files (`RepeatedStructures`), valid images with one structure repeated as often as
/// fits in about 1 MB. A decoder that is quadratic in one of them needs seconds for it,
/// so `make fuzz` (1 s per input, slow inputs reported) reports that before the first
/// mutation, and the mutations of these seeds search the paths around them.
public enum RepeatedStructureSeeds {
    /// The size each seed grows to. `make fuzz` caps inputs at 1 MiB (`-max_len`);
    /// the rest of the MiB leaves libFuzzer room to insert bytes.
    public static let targetBytes = 1_000_000

    /// The seeds for `target`, named for what repeats and how often; none for `headers`
    /// and `icc`.
    public static func files(for target: FuzzTarget) throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        switch target {
        case .png: try png()
        case .jpeg: try jpeg()
        case .gif: try gif()
        case .webp: try webp()
        case .avif: try avif()
        case .incremental, .sniff: try png() + jpeg() + gif() + webp() + avif()
        case .headers, .icc: []
        }
    }

    /// Writes the seeds for `target` into `directory` (made if missing), replacing
    /// earlier copies, those of other sizes too (their names start with the format and
    /// a dash, which libFuzzer's and the corpus copies' names never do). Returns how
    /// many it wrote.
    public static func write(for target: FuzzTarget, into directory: String) throws -> Int {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: directory)
        where ["png-", "jpeg-", "gif-", "webp-", "avif-"].contains(where: name.hasPrefix) {
            try manager.removeItem(at: folder.appendingPathComponent(name))
        }
        let seeds = try files(for: target)
        for seed in seeds {
            try seed.bytes.write(to: folder.appendingPathComponent(seed.name))
        }
        return seeds.count
    }

    private static func jpeg() throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        let photo = try JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
        let segments: [(String, RepeatedStructures.JPEGSegment)] = [
            ("app0", .emptyApp(0)), ("app1", .emptyApp(1)), ("app2", .emptyApp(2)), ("app14", .emptyApp(14)),
            ("com", .emptyComment), ("exif", .exif), ("dqt", .quantizationTables), ("dht", .huffmanTables),
        ]
        var files = segments.map { name, segment in
            filled("jpeg-\(name)", "jpg") { RepeatedStructures.jpeg(photo, repeating: segment, count: $0) }
        }
        // Scans: just under the decoder's limit of 1,000 (decodes), and as many as fit (refused).
        let progressive = try JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.grayPhoto(width: 64, height: 48))
        files.append(("jpeg-scans-x990.jpg", RepeatedStructures.jpeg(progressive, repeatingLastScan: 990)))
        files.append(filled("jpeg-scans", "jpg") { RepeatedStructures.jpeg(progressive, repeatingLastScan: $0) })
        // A restart marker after each of 16,000 gray 8x8 MCUs: 1,024,000 pixels, just
        // under the harnesses' pixel limit.
        let flat = try ImageBitmap(width: 8_000, height: 128, pixelFormat: .gray8) { pixels, _ in
            pixels.initializeMemory(as: UInt8.self, repeating: 128)
        }
        files.append(("jpeg-restart-x16000.jpg", try JPEGFixtureEncoder(restartInterval: 1).encode(flat)))
        return files
    }

    private static func png() throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        let photo = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
        let chunks: [(String, RepeatedStructures.PNGChunk)] = [("text", .text), ("ztxt", .compressedText), ("unknown", .unknown)]
        var files = chunks.map { name, chunk in
            filled("png-\(name)", "png") { RepeatedStructures.png(photo, repeating: chunk, count: $0) }
        }
        // 1-byte IDAT chunks (13 bytes of framing each) for the largest square that fits.
        files.append(
            try largestSquare("png-idat1", "png") { (side) throws(ImageDecodingError) -> Data in
                RepeatedStructures.png(
                    try PNGFixtureEncoder().encode(SyntheticImage.photo(width: side, height: side)), splittingImageDataInto: 1)
            })
        return files
    }

    private static func gif() throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        let still = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 64, height: 48, frameCount: 1))
        let kinds: [(String, RepeatedStructures.GIFExtensionKind)] = [
            ("comment", .comment), ("application", .application), ("gce", .graphicControl),
        ]
        var files = kinds.map { name, kind in
            filled("gif-\(name)", "gif") { RepeatedStructures.gif(still, repeating: kind, count: $0) }
        }
        files.append(filled("gif-frames1x1", "gif") { RepeatedStructures.gif(onePixelFrames: $0) })
        files.append(
            try largestSquare("gif-subblock1", "gif") { (side) throws(ImageDecodingError) -> Data in
                let gif = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: side, height: side, frameCount: 1))
                return RepeatedStructures.gif(oneByteSubBlocks: gif)
            })
        return files
    }

    /// `make(count)` for the largest count that keeps it within ``targetBytes``: the
    /// repeated structure's size is what one more copy adds.
    private static func filled(_ stem: String, _ suffix: String, _ make: (Int) -> Data) -> (name: String, bytes: Data) {
        let base = make(0).count
        let count = (targetBytes - base) / max(1, make(1).count - base)
        return ("\(stem)-x\(count).\(suffix)", make(count))
    }

    /// `make(side)` for a side whose file fits within ``targetBytes``: the side is
    /// estimated from a 64x64 file's bytes per pixel, then shrunk until it fits. At
    /// most 500: the harnesses decode a file up to six ways, and the pixels of a larger
    /// image (not its repeated structure) would take most of the 1 s an input may take
    /// under AddressSanitizer.
    private static func largestSquare(
        _ stem: String, _ suffix: String, _ make: (Int) throws(ImageDecodingError) -> Data
    ) throws(ImageDecodingError) -> (name: String, bytes: Data) {
        let perPixel = Double(try make(64).count) / Double(64 * 64)
        var side = min(500, Int((Double(targetBytes) / perPixel).squareRoot()))
        var file = try make(side)
        while file.count > targetBytes {
            side = side * 19 / 20
            file = try make(side)
        }
        return ("\(stem)-\(side)x\(side).\(suffix)", file)
    }

    /// Small WebP files for the fuzzer to start from (the corpus has none): lossy,
    /// lossless with alpha, extended with EXIF, and animated. Nothing repeats in them yet.
    static func webp() throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        let photo = try SyntheticImage.photo(width: 48, height: 32)
        let translucent = try SyntheticImage.translucent(width: 48, height: 32)
        return [
            ("webp-lossy.webp", try WebPFixtureEncoder(quality: 60).encode(photo)),
            ("webp-lossless-alpha.webp", try WebPFixtureEncoder(lossless: true).encode(translucent)),
            ("webp-exif.webp", try WebPFixtureEncoder(quality: 60, exifOrientation: .right).encode(photo)),
            ("webp-animated.webp", try WebPFixtureEncoder(quality: 60).encodeAnimation([photo, translucent], durations: [50, 70])),
        ]
    }

    /// Small AVIF files for the fuzzer to start from (the corpus has none), written by
    /// the library's encoder: lossy, lossless with alpha, turned and mirrored, and an
    /// image sequence.
    static func avif() throws(ImageDecodingError) -> [(name: String, bytes: Data)] {
        let photo = try SyntheticImage.photo(width: 48, height: 32)
        let translucent = try SyntheticImage.translucent(width: 48, height: 32)
        let fast = AVIFEncoder(quality: 50, speed: 10)
        let frames = [photo, translucent].map { ImageFrame(bitmap: $0, duration: .milliseconds(60), storedDelay: .milliseconds(60)) }
        return [
            ("avif-lossy.avif", try fast.encode(photo)),
            ("avif-lossless-alpha.avif", try AVIFEncoder(speed: 10, lossless: true).encode(translucent)),
            ("avif-turned.avif", try fast.encode(photo, orientation: .leftMirrored)),
            ("avif-sequence.avif", try fast.encodeAnimation(DecodedImage(format: .avif, frames: frames))),
        ]
    }
}
