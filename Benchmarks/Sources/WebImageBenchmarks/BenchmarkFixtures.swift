import Foundation
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

/// The encoded files every case decodes, generated at start from fixed seeds so that
/// every run measures the same bytes.
struct BenchmarkFixtures {
    struct Description {
        var name: String
        var width: Int
        var height: Int
        var frames: Int
        var bytes: Int
        var bitsPerPixel: Double { Double(bytes * 8) / Double(width * height * frames) }
    }

    var jpeg: Data  // 4000x3000, q85, 4:2:0, baseline
    var progressiveJPEG: Data  // the same picture, progressive
    var rgbaPNG: Data  // 1024x1024 RGBA with varied alpha
    var rgbPNG: Data  // 4000x3000 RGB
    var gif: Data  // 480x360, 30 frames, 256 colours
    var smallJPEGs: [Data]  // 256x256, q85, 4:2:0
    var webpLossy: Data  // 2000x1500, q80
    var webpLossless: Data  // 2000x1500, method 0
    var webpAnimation: Data  // 480x360, 30 frames, lossy q80
    var descriptions: [Description] = []

    /// Writes the fixtures as files, so that one decode can be run alone (under
    /// valgrind, or with `--memory`), or viewed.
    func write(to directory: String) throws {
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files: [(String, Data)] =
            [
                ("photo-4000x3000-q85-420.jpg", jpeg),
                ("photo-4000x3000-q85-420-progressive.jpg", progressiveJPEG),
                ("translucent-1024x1024.png", rgbaPNG),
                ("photo-4000x3000-rgb.png", rgbPNG),
                ("animation-480x360x30.gif", gif),
                ("photo-2000x1500-q80.webp", webpLossy),
                ("photo-2000x1500-lossless.webp", webpLossless),
                ("animation-480x360x30.webp", webpAnimation),
            ] + (smallJPEGs.first.map { [("photo-256x256-q85-420.jpg", $0)] } ?? [])
        for (name, data) in files {
            try data.write(to: folder.appendingPathComponent(name))
            print(folder.appendingPathComponent(name).path)
        }
    }

    init(smallCount: Int) throws {
        let photo = try SyntheticImage.photo(width: 4000, height: 3000)
        jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(photo)
        progressiveJPEG = try JPEGFixtureEncoder(quality: 85, subsampling: .s420, progressive: true).encode(photo)
        // libpng's default compression, as PNGs found on the web are written.
        rgbPNG = try PNGFixtureEncoder(rgb: true, compression: .default).encode(photo)
        rgbaPNG = try PNGFixtureEncoder(compression: .default).encode(try SyntheticImage.translucent(width: 1024, height: 1024))
        let animation = try SyntheticAnimation.make(width: 480, height: 360, frameCount: 30)
        gif = try GIFFixtureEncoder().encode(animation)
        let webpPhoto = try SyntheticImage.photo(width: 2000, height: 1500)
        webpLossy = try WebPFixtureEncoder(quality: 80).encode(webpPhoto)
        // Method 0: libwebp's default effort takes seconds for a lossless photo this size.
        webpLossless = try WebPFixtureEncoder(quality: 0, lossless: true, method: 0).encode(webpPhoto)
        webpAnimation = try WebPFixtureEncoder(quality: 80).encodeAnimation(
            try Self.panning(width: 480, height: 360, frames: 30), durations: Array(repeating: 40, count: 30))
        smallJPEGs = try (0..<smallCount).map { index in
            try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(
                try SyntheticImage.photo(width: 256, height: 256, seed: UInt64(index) &+ 1000)
            )
        }
        descriptions = [
            Description(name: "JPEG q85 4:2:0 baseline", width: 4000, height: 3000, frames: 1, bytes: jpeg.count),
            Description(name: "JPEG q85 4:2:0 progressive", width: 4000, height: 3000, frames: 1, bytes: progressiveJPEG.count),
            Description(name: "PNG RGBA", width: 1024, height: 1024, frames: 1, bytes: rgbaPNG.count),
            Description(name: "PNG RGB", width: 4000, height: 3000, frames: 1, bytes: rgbPNG.count),
            Description(name: "GIF 256 colours", width: 480, height: 360, frames: 30, bytes: gif.count),
            Description(name: "WebP lossy q80", width: 2000, height: 1500, frames: 1, bytes: webpLossy.count),
            Description(name: "WebP lossless", width: 2000, height: 1500, frames: 1, bytes: webpLossless.count),
            Description(name: "WebP lossy q80 animation", width: 480, height: 360, frames: 30, bytes: webpAnimation.count),
            Description(
                name: "JPEG q85 4:2:0 (each of \(smallCount))", width: 256, height: 256, frames: 1,
                bytes: smallJPEGs.reduce(0) { $0 + $1.count } / Swift.max(1, smallCount)),
        ]
    }

    /// `frames` views of a wider photo, each a step to the right of the last: a camera
    /// panning, as the GIF animation shows.
    static func panning(width: Int, height: Int, frames: Int) throws -> [ImageBitmap] {
        let step = Swift.max(1, width / 60)
        let scene = try SyntheticImage.photo(width: width + step * (frames - 1), height: height)
        return try (0..<frames).map { number in
            try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { out, stride in
                scene.withUnsafeBytes { source in
                    for y in 0..<height {
                        let from = source.baseAddress! + y * scene.bytesPerRow + number * step * 4
                        (out.baseAddress! + y * stride).copyMemory(from: from, byteCount: width * 4)
                    }
                }
            }
        }
    }
}
