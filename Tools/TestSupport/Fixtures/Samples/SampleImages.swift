import Foundation
import WebImageCore

/// The project's own sample images: one of each kind the decoders handle, made from a
/// seed with the C encoders, so that `make run` and demos need no files from elsewhere.
///
/// Thread contract: stateless; call from any thread.
public enum SampleImages {
    /// A sample: a file name and its bytes.
    public struct Sample: Sendable {
        public let name: String
        public let data: Data
    }

    /// Baseline, progressive, rotated and gray JPEG photos, a translucent RGBA PNG, an
    /// interlaced RGB PNG, and two animated GIFs (global and local colour tables).
    ///
    /// - Throws: ``ImageDecodingError`` when an encoder fails or memory runs out.
    public static func all(seed: UInt64 = WebImageFixtures.defaultSeed) throws(ImageDecodingError) -> [Sample] {
        let photo = try SyntheticImage.photo(width: 1600, height: 1200, seed: seed)
        let smallPhoto = try SyntheticImage.photo(width: 640, height: 480, seed: seed &+ 1)
        return [
            Sample(name: "photo-baseline.jpg", data: try JPEGFixtureEncoder(quality: 85).encode(photo)),
            Sample(name: "photo-progressive.jpg", data: try JPEGFixtureEncoder(quality: 85, progressive: true).encode(photo)),
            Sample(name: "photo-rotated.jpg", data: try JPEGFixtureEncoder(quality: 85, exifOrientation: .right).encode(smallPhoto)),
            Sample(
                name: "photo-gray.jpg",
                data: try JPEGFixtureEncoder(quality: 90).encode(try SyntheticImage.grayPhoto(width: 800, height: 600, seed: seed))),
            Sample(
                name: "translucent.png",
                data: try PNGFixtureEncoder().encode(try SyntheticImage.translucent(width: 512, height: 512, seed: seed))),
            Sample(name: "photo-interlaced.png", data: try PNGFixtureEncoder(interlaced: true, rgb: true).encode(smallPhoto)),
            Sample(
                name: "animation.gif",
                data: try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 320, height: 240, frameCount: 30, seed: seed))),
            Sample(
                name: "animation-local-palettes.gif",
                data: try GIFFixtureEncoder().encode(
                    SyntheticAnimation.make(
                        width: 200, height: 150, frameCount: 12, localPalettes: true, delayCentiseconds: 8, loopCount: 3, seed: seed)
                )),
        ]
    }
}
