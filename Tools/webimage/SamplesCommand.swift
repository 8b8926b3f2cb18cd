import ArgumentParser
import Foundation
import WebImageFixtures

/// `webimage samples --out DIR`: writes the project's own sample images.
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Write the project's sample images (JPEG, PNG, animated GIF), made from a seed.",
        discussion: "The same seed gives the same bytes on every run and machine."
    )

    @Option(name: .customLong("out"), help: "The directory to write into (created if missing).")
    var outputDirectory: String

    @Option(help: "The seed of the synthetic pictures.")
    var seed: UInt64 = WebImageFixtures.defaultSeed

    func run() throws {
        let folder = URL(fileURLWithPath: outputDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for sample in try SampleImages.all(seed: seed) {
            let url = folder.appendingPathComponent(sample.name)
            try sample.data.write(to: url, options: .atomic)
            print("\(url.path)\t\(sample.data.count) bytes")
        }
    }
}
