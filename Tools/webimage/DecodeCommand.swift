import ArgumentParser
import Foundation
import WebImage
import WebImageCore
import WebImageDecoding

/// `webimage decode FILE...`: decodes each file, prints what it found, optionally
/// writes the pixels out as PNG. Exits non-zero when any file failed.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode image files and report their format, size, frames and decode time.",
        discussion: """
            Each file is recognised from its first bytes (PNG, APNG, JPEG, GIF, WebP, \
            AVIF), decoded, and reported on one line. With --out, a still image is \
            written as NAME.EXT in the --format asked (png by default, jpeg, webp, \
            avif); an animation as NAME-K.EXT per frame K (from 0) for png and jpeg, \
            and as one animated NAME.webp or NAME.avif for webp and avif. With --json, each line \
            is a JSON object with the keys file, format, width, height, frames, \
            loopCount, durationsMs, decodeMs and error (null, or a message).
            """
    )

    @Argument(help: "The image files to decode.")
    var files: [String]

    @Option(name: .customLong("max-pixel-size"), help: "Scale down so that the longer side is at most N pixels.")
    var maxPixelSize: Int?

    @Flag(name: .customLong("first-frame"), help: "Decode only the first frame of an animation.")
    var firstFrame = false

    @Option(name: .customLong("out"), help: "Write the decoded pixels into this directory.")
    var outputDirectory: String?

    @Option(name: .customLong("format"), help: "The format --out writes: png, jpeg, webp, avif or gif.")
    var outputFormat: OutputFormat = .png

    @Option(name: .customLong("quality"), help: "JPEG, WebP or AVIF quality, 1 to 100 (85 for JPEG, 80 for WebP, 60 for AVIF).")
    var quality: Int?

    @Flag(name: .customLong("json"), help: "Print one JSON object per file instead of a table.")
    var json = false

    func validate() throws {
        if let maxPixelSize, maxPixelSize <= 0 {
            throw ValidationError("--max-pixel-size must be a positive number of pixels")
        }
        if let quality, !(1...100).contains(quality) {
            throw ValidationError("--quality must be from 1 to 100")
        }
    }

    func run() throws {
        let options = DecodeOptions(maxPixelSize: maxPixelSize, firstFrameOnly: firstFrame)
        let registry = ImageDecoderRegistry.allFormats
        if let outputDirectory {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        }
        var failures = 0
        for file in files {
            let report = DecodeReport.decode(file: file, registry: registry, options: options)
            var line = report
            if case .success(let image) = report.outcome, let outputDirectory {
                do {
                    try FrameWriter.write(image, named: file, into: outputDirectory, format: outputFormat, quality: quality)
                } catch {
                    line = report.failing(with: "could not write \(outputFormat.rawValue) output: \(error)")
                }
            }
            if line.error != nil { failures += 1 }
            print(json ? line.jsonLine() : line.textLine())
        }
        if failures > 0 {
            if !json {
                FileHandle.standardError.write(Data("\(failures) of \(files.count) files failed\n".utf8))
            }
            throw ExitCode.failure
        }
    }
}
