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
            Each file is recognised from its first bytes (PNG, JPEG, GIF), decoded, and \
            reported on one line. With --out, a still image is written as NAME.png and \
            each frame of an animation as NAME-K.png (K from 0). With --json, each line \
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

    @Option(name: .customLong("out"), help: "Write the decoded pixels as PNG files into this directory.")
    var outputDirectory: String?

    @Flag(name: .customLong("json"), help: "Print one JSON object per file instead of a table.")
    var json = false

    func validate() throws {
        if let maxPixelSize, maxPixelSize <= 0 {
            throw ValidationError("--max-pixel-size must be a positive number of pixels")
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
                    try PNGFrameWriter.write(image, named: file, into: outputDirectory)
                } catch {
                    line = report.failing(with: "could not write PNG output: \(error)")
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
