import CBaselines
import Foundation
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// The thumbnail cases: the resampler beside Pillow on the same pixels, and a
/// decode to fit 256 px beside the DCT-scaled decode alone (and Pillow's draft +
/// thumbnail). Pillow runs in a Python process started for these cases; without it the
/// Pillow rows are left out with a message.
enum ResizeCases {
    static let names = [
        "Resize 400x300 to 256x192 RGBA", "Decode 1600x1200 JPEG to fit 256 px", "Resize 400x300 translucent RGBA to 256x192",
    ]
    /// Operations per timed run: the Python round trip is spread over them.
    static let batch = 20
    static let pillowResize = "Pillow resize LANCZOS"
    static let pillowThumbnail = "Pillow draft + thumbnail"
    static let pillowReference = "Pillow's LANCZOS of the full-size decode"

    static func all() throws -> [BenchmarkCase] {
        let pixels = try SyntheticImage.photo(width: 400, height: 300)
        let source = DecodedImage(format: .png, frames: [ImageFrame(bitmap: pixels)])
        let resize = ResizeTransformer(width: 256, height: 192, mode: .fit)
        let jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(
            try SyntheticImage.photo(width: 1600, height: 1200, seed: 23))
        let fit = DecodeOptions(maxPixelSize: 256)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-resize-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let jpegPath = folder.appendingPathComponent("photo.jpg").path
        try jpeg.write(to: URL(fileURLWithPath: jpegPath))
        let thumbnailPeer = PythonPeer(
            setup: """
                import io
                from PIL import Image
                data = open("\(jpegPath)", "rb").read()
                def run():
                    image = Image.open(io.BytesIO(data))
                    image.draft("RGB", (256, 256))
                    image.thumbnail((256, 256))
                """, peer: pillowThumbnail)
        quality = try compareWithPillow(jpeg: jpeg, jpegPath: jpegPath, folder: folder)
        let ours = try resize.transform(source)
        guard ours.size == PixelSize(width: 256, height: 192) else {
            throw Baseline.Failure(description: "Resize: ours is \(ours.size)")
        }
        let photoContenders = try Self.resizeContenders(pixels, name: "photo", folder: folder, resize: resize)
        // Alpha from 0 to 255 (a vignette): the premultiplied path, where the opaque
        // photo above takes the opaque one.
        let translucentContenders = try Self.resizeContenders(
            try SyntheticImage.translucent(width: 400, height: 300), name: "translucent", folder: folder, resize: resize)
        var fitContenders = [
            Contender(name: "ours (maxPixelSize 256)") { for _ in 0..<batch { consume(try JPEGDecoder().decode(jpeg, options: fit)) } },
            Contender(name: "tjDecompress2 1/4 alone") { for _ in 0..<batch { try Baseline.jpeg(jpeg, scaleDenominator: 4) } },
        ]
        if let thumbnailPeer { fitContenders.append(Contender(name: pillowThumbnail) { try thumbnailPeer.run(batch) }) }
        return [
            BenchmarkCase(
                section: .thumbnails, name: names[0], contenders: photoContenders, imagesPerRun: batch,
                comparisons: [.time(.atMost(0.5), against: pillowResize)]),
            BenchmarkCase(
                section: .thumbnails, name: names[1], contenders: fitContenders, imagesPerRun: batch,
                comparisons: [.time(.atMost(1.15)), .rate(.atLeast(1.3), against: pillowThumbnail)]),
            BenchmarkCase(
                section: .thumbnails, name: names[2], contenders: translucentContenders, imagesPerRun: batch,
                comparisons: [.time(.atMost(0.5), against: pillowResize)]),
        ]
    }

    /// Ours and Pillow's `resize(LANCZOS)` (in a Python process, given the same pixels in
    /// a file) resizing `pixels` to 256x192; Pillow resizes RGBA premultiplied, as ours
    /// does where alpha is not 255 throughout (its RGBa mode).
    static func resizeContenders(_ pixels: ImageBitmap, name: String, folder: URL, resize: ResizeTransformer) throws
        -> [Contender]
    {
        let source = DecodedImage(format: .png, frames: [ImageFrame(bitmap: pixels)])
        let path = folder.appendingPathComponent("\(name).rgba").path
        try Data(pixels.packedBytes).write(to: URL(fileURLWithPath: path))
        var contenders = [
            Contender(name: "ours (ResizeTransformer)") { for _ in 0..<batch { consume(try resize.transform(source)) } }
        ]
        let peer = PythonPeer(
            setup: """
                from PIL import Image
                source = Image.frombytes("RGBA", (\(pixels.width), \(pixels.height)), open("\(path)", "rb").read())
                def run(): source.resize((256, 192), Image.LANCZOS)
                """, peer: pillowResize)
        if let peer { contenders.append(Contender(name: pillowResize) { try peer.run(batch) }) }
        return contenders
    }

    /// PSNR (dB, over R, G and B) of ours and of Pillow's `draft` + `thumbnail` against
    /// Pillow's LANCZOS of the full-size decode; `nil` without Pillow.
    nonisolated(unsafe) static var quality: (ours: Double, pillowThumbnail: Double)?

    /// The reference is made once, untimed, by a Python process.
    static func compareWithPillow(jpeg: Data, jpegPath: String, folder: URL) throws -> (ours: Double, pillowThumbnail: Double)? {
        let reference = folder.appendingPathComponent("reference.rgb").path
        let thumbnail = folder.appendingPathComponent("thumbnail.rgb").path
        // The files are written by the peer's setup; it runs nothing after.
        let peer = PythonPeer(
            setup: """
                from PIL import Image
                full = Image.open("\(jpegPath)").convert("RGB")
                open("\(reference)", "wb").write(full.resize((256, 192), Image.LANCZOS).tobytes())
                quick = Image.open("\(jpegPath)")
                quick.draft("RGB", (256, 256))
                quick.thumbnail((256, 256))
                open("\(thumbnail)", "wb").write(quick.convert("RGB").tobytes())
                def run(): pass
                """, peer: pillowReference)
        guard peer != nil, let referenceBytes = FileManager.default.contents(atPath: reference),
            let thumbnailBytes = FileManager.default.contents(atPath: thumbnail)
        else { return nil }
        let ours = try JPEGDecoder().decode(jpeg, options: DecodeOptions(maxPixelSize: 256)).bitmap
        guard ours.size == PixelSize(width: 256, height: 192), referenceBytes.count == 256 * 192 * 3 else {
            throw Baseline.Failure(description: "Decode to fit: ours is \(ours.size), the reference \(referenceBytes.count) bytes")
        }
        let oursRGB = ours.packedBytes.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        guard thumbnailBytes.count == referenceBytes.count else {
            throw Baseline.Failure(description: "Decode to fit: Pillow's thumbnail is \(thumbnailBytes.count) bytes")
        }
        return (
            PixelComparison.psnr(oursRGB, Array(referenceBytes)), PixelComparison.psnr(Array(thumbnailBytes), Array(referenceBytes))
        )
    }

    /// One opaque resize's time (at most 0.25 ms), and the quality beside the speed: the
    /// scaled decode must match a reference resize of the full image within 35 dB of PSNR.
    static func printSummary(_ results: [CaseResult]) {
        if let photo = results.first(where: { $0.name == names[0] }) {
            let each = photo.medians.map { $0 / Double(photo.imagesPerRun) }
            Findings.record(
                .thumbnails, "Resize 400x300 to 256x192 RGBA: one resize", ours: .seconds(photo.contenders[0], each[0]),
                peer: photo.contenders.firstIndex(of: pillowResize).map { Figure.seconds(pillowResize, each[$0]) },
                measured: Figure(label: "ours per resize", value: each[0] * 1000, unit: "ms"), goal: .atMost(0.25))
        }
        guard results.contains(where: { $0.name == names[1] }) else { return }
        let name = "Decode 1600x1200 JPEG to fit 256 px: PSNR against \(pillowReference)"
        guard let quality else {
            Findings.skip(.thumbnails, name, reason: "no Pillow to make the reference (make bench-peers installs it)")
            return
        }
        Findings.record(
            .thumbnails, name, ours: Figure(label: "ours", value: quality.ours, unit: "dB"),
            peer: Figure(label: pillowThumbnail, value: quality.pillowThumbnail, unit: "dB"),
            measured: Figure(label: "ours", value: quality.ours, unit: "dB"), goal: .atLeast(35))
    }
}
