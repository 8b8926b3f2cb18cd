import Foundation
import WebImageCore
import WebImageDecoding

/// The decode cases, each ours beside the bare C call on the same bytes.
enum Cases {
    static let eighth = DecodeOptions(maxPixelSize: 500)
    /// Every frame of an animation decoded, as the C baselines decode them.
    static let allFrames = DecodeOptions(frameBuffering: .allFrames)

    static func all(_ fixtures: BenchmarkFixtures, rounds: Int) -> [BenchmarkCase] {
        let jpeg = fixtures.jpeg
        let progressive = fixtures.progressiveJPEG
        let rgbaPNG = fixtures.rgbaPNG
        let rgbPNG = fixtures.rgbPNG
        let gif = fixtures.gif
        let small = fixtures.smallJPEGs
        return [
            BenchmarkCase(
                section: .decode,
                name: "JPEG 4000x3000 full",
                contenders: [
                    Contender(name: "ours") { consume(try JPEGDecoder().decode(jpeg)) },
                    Contender(name: "tjDecompress2") { try Baseline.jpeg(jpeg) },
                    Contender(name: "tjDecompress2 into malloc") { try Baseline.jpeg(jpeg, buffers: .malloc) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "JPEG 4000x3000 at 500 px (1/8)",
                contenders: [
                    Contender(name: "ours") { consume(try JPEGDecoder().decode(jpeg, options: eighth)) },
                    Contender(name: "tjDecompress2 1/8") { try Baseline.jpeg(jpeg, scaleDenominator: 8) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "JPEG 4000x3000 progressive",
                contenders: [
                    Contender(name: "ours") { consume(try JPEGDecoder().decode(progressive)) },
                    Contender(name: "tjDecompress2") { try Baseline.jpeg(progressive) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "PNG 1024x1024 RGBA",
                contenders: [
                    Contender(name: "ours") { consume(try PNGDecoder().decode(rgbaPNG)) },
                    Contender(name: "png_image (simplified)") { try Baseline.png(rgbaPNG) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "PNG 4000x3000 RGB",
                contenders: [
                    Contender(name: "ours") { consume(try PNGDecoder().decode(rgbPNG)) },
                    Contender(name: "png_image (simplified)") { try Baseline.png(rgbPNG) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "GIF 480x360, 30 frames",
                contenders: [
                    Contender(name: "ours") { consume(try GIFDecoder().decode(gif, options: Cases.allFrames)) },
                    Contender(name: "DGifSlurp + expand") { try Baseline.gif(gif) },
                ], imagesPerRun: 1, comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: "\(small.count) JPEGs 256x256",
                contenders: [
                    Contender(name: "ours") { for data in small { consume(try JPEGDecoder().decode(data)) } },
                    Contender(name: "tjDecompress2") { for data in small { try Baseline.jpeg(data) } },
                ], imagesPerRun: small.count, rounds: Swift.max(3, rounds / 2), comparisons: [.sameLibrary]),
            // What a load under a memory budget runs: an estimate, then the decode. One
            // prepared decode parses the header once for both; the separate calls sniff
            // and parse twice (for a GIF, two walks of every block).
            BenchmarkCase(
                section: .decode,
                name: "\(small.count) JPEGs 256x256, estimate and decode",
                contenders: [
                    Contender(name: "ours, one parse (prepareDecode)") {
                        for data in small { consume(try estimatedThenDecoded(data)) }
                    },
                    Contender(name: "ours, estimate then decode") { for data in small { consume(try estimateThenDecode(data)) } },
                ], imagesPerRun: small.count, rounds: Swift.max(3, rounds / 2), comparisons: [.time()]),
            BenchmarkCase(
                section: .decode,
                name: "GIF 480x360, 30 frames, estimate and decode",
                contenders: [
                    Contender(name: "ours, one parse (prepareDecode)") { consume(try estimatedThenDecoded(gif)) },
                    Contender(name: "ours, estimate then decode") { consume(try estimateThenDecode(gif)) },
                ], comparisons: [.time()]),
        ]
    }

    /// The decode stage under a memory budget: one sniff and one header parse for the
    /// estimate and the decode.
    static func estimatedThenDecoded(_ data: Data) throws(ImageDecodingError) -> DecodedImage {
        let prepared = try ImageDecoderRegistry.standard.prepareDecode(data, options: .default)
        guard prepared.estimatedMemory != nil else { throw ImageDecodingError(.invalidHeader, "no estimate") }
        return try prepared.decode()
    }

    /// The same stage with the estimate and the decode asked for separately.
    static func estimateThenDecode(_ data: Data) throws(ImageDecodingError) -> DecodedImage {
        let registry = ImageDecoderRegistry.standard
        guard registry.estimatedMemory(decoding: data, options: .default) != nil else {
            throw ImageDecodingError(.invalidHeader, "no estimate")
        }
        return try registry.decode(data, options: .default)
    }

    /// Decodes every fixture once both ways and checks that the sizes agree, so that
    /// a broken decoder shows as an error rather than as a fast time.
    static func verify(_ fixtures: BenchmarkFixtures) throws {
        func check(_ what: String, _ ours: PixelSize, _ bare: (width: Int, height: Int)) throws {
            guard ours.width == bare.width, ours.height == bare.height else {
                throw Baseline.Failure(description: "\(what): ours is \(ours), the C baseline \(bare.width)x\(bare.height)")
            }
        }
        try check("JPEG full", try JPEGDecoder().decode(fixtures.jpeg).size, try Baseline.jpeg(fixtures.jpeg))
        try check(
            "JPEG 1/8", try JPEGDecoder().decode(fixtures.jpeg, options: eighth).size, try Baseline.jpeg(fixtures.jpeg, scaleDenominator: 8)
        )
        try check("JPEG progressive", try JPEGDecoder().decode(fixtures.progressiveJPEG).size, try Baseline.jpeg(fixtures.progressiveJPEG))
        try check("PNG RGBA", try PNGDecoder().decode(fixtures.rgbaPNG).size, try Baseline.png(fixtures.rgbaPNG))
        try check("PNG RGB", try PNGDecoder().decode(fixtures.rgbPNG).size, try Baseline.png(fixtures.rgbPNG))
        let ours = try GIFDecoder().decode(fixtures.gif, options: Cases.allFrames)
        let bare = try Baseline.gif(fixtures.gif)
        try check("GIF", ours.size, (bare.width, bare.height))
        guard ours.frames.count == bare.frames else {
            throw Baseline.Failure(description: "GIF: ours has \(ours.frames.count) frames, the C baseline \(bare.frames)")
        }
    }

    /// How far ours is from the baseline's pixels, per case: the largest and the
    /// mean absolute difference per sample. PNG and GIF should be exact; JPEG within
    /// rounding of the same libjpeg-turbo code.
    static func pixelDifferences(_ fixtures: BenchmarkFixtures) throws -> [(name: String, maximum: Int, mean: Double)] {
        func compare(_ name: String, _ ours: [UInt8], _ bare: [UInt8]) throws -> (String, Int, Double) {
            guard ours.count == bare.count else {
                throw Baseline.Failure(description: "\(name): ours has \(ours.count) bytes, the baseline \(bare.count)")
            }
            var maximum = 0
            var total = 0
            for (a, b) in zip(ours, bare) {
                let difference = abs(Int(a) - Int(b))
                maximum = Swift.max(maximum, difference)
                total += difference
            }
            return (name, maximum, Double(total) / Double(Swift.max(1, ours.count)))
        }
        return [
            try compare(
                "JPEG 4000x3000", try JPEGDecoder().decode(fixtures.jpeg).bitmap.packedBytes,
                try Baseline.firstImagePixels("jpeg", fixtures.jpeg)),
            try compare(
                "JPEG progressive", try JPEGDecoder().decode(fixtures.progressiveJPEG).bitmap.packedBytes,
                try Baseline.firstImagePixels("jpeg", fixtures.progressiveJPEG)),
            try compare(
                "PNG RGBA", try PNGDecoder().decode(fixtures.rgbaPNG).bitmap.packedBytes,
                try Baseline.firstImagePixels("png", fixtures.rgbaPNG)),
            try compare(
                "PNG RGB", try PNGDecoder().decode(fixtures.rgbPNG).bitmap.packedBytes,
                try Baseline.firstImagePixels("png", fixtures.rgbPNG)),
            try compare(
                "GIF first frame", try GIFDecoder().decode(fixtures.gif).bitmap.packedBytes,
                try Baseline.firstImagePixels("gif", fixtures.gif)),
        ]
    }
}
