import CBaselines
import Foundation
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// Issue 23's thumbnail goals: the resampler beside Pillow on the same pixels, and a
/// decode to fit 256 px beside the DCT-scaled decode alone (and Pillow's draft +
/// thumbnail). Pillow runs in a Python process started for these cases; without it the
/// Pillow rows are left out with a message.
enum ResizeCases {
    static let names = ["Resize 400x300 to 256x192 RGBA", "Decode 1600x1200 JPEG to fit 256 px"]
    /// Operations per timed run: the Python round trip is spread over them.
    static let batch = 20

    static func all() throws -> [BenchmarkCase] {
        let pixels = try SyntheticImage.photo(width: 400, height: 300)
        let source = DecodedImage(format: .png, frames: [ImageFrame(bitmap: pixels)])
        let resize = ResizeTransformer(width: 256, height: 192, mode: .fit)
        let jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(
            try SyntheticImage.photo(width: 1600, height: 1200, seed: 23))
        let fit = DecodeOptions(maxPixelSize: 256)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-resize-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rawPath = folder.appendingPathComponent("photo.rgba").path
        let jpegPath = folder.appendingPathComponent("photo.jpg").path
        try Data(pixels.packedBytes).write(to: URL(fileURLWithPath: rawPath))
        try jpeg.write(to: URL(fileURLWithPath: jpegPath))
        let resizePeer = PythonPeer(
            setup: """
                from PIL import Image
                source = Image.frombytes("RGBA", (400, 300), open("\(rawPath)", "rb").read())
                def run(): source.resize((256, 192), Image.LANCZOS)
                """, missing: "Resize: the Pillow row is left out")
        let thumbnailPeer = PythonPeer(
            setup: """
                import io
                from PIL import Image
                data = open("\(jpegPath)", "rb").read()
                def run():
                    image = Image.open(io.BytesIO(data))
                    image.draft("RGB", (256, 256))
                    image.thumbnail((256, 256))
                """, missing: "Decode to fit: the Pillow row is left out")
        let ours = try resize.transform(source)
        guard ours.size == PixelSize(width: 256, height: 192) else {
            throw Baseline.Failure(description: "Resize: ours is \(ours.size)")
        }
        var resizeContenders = [
            Contender(name: "ours (ResizeTransformer)") { for _ in 0..<batch { consume(try resize.transform(source)) } }
        ]
        if let resizePeer { resizeContenders.append(Contender(name: "Pillow resize LANCZOS") { try resizePeer.run(batch) }) }
        var fitContenders = [
            Contender(name: "ours (maxPixelSize 256)") { for _ in 0..<batch { consume(try JPEGDecoder().decode(jpeg, options: fit)) } },
            Contender(name: "tjDecompress2 1/4 alone") { for _ in 0..<batch { try Baseline.jpeg(jpeg, scaleDenominator: 4) } },
        ]
        if let thumbnailPeer { fitContenders.append(Contender(name: "Pillow draft + thumbnail") { try thumbnailPeer.run(batch) }) }
        return [
            BenchmarkCase(name: names[0], contenders: resizeContenders, imagesPerRun: batch),
            BenchmarkCase(name: names[1], contenders: fitContenders, imagesPerRun: batch),
        ]
    }
}
