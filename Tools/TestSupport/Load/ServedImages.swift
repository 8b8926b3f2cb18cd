import Foundation
import WebImage
import WebImageFixtures

/// The distinct images the run serves, written to a folder at start.
///
/// Every image has its own pixel size, so the size of a decoded image says which file
/// it came from: a load that delivers another URL's image is caught by its dimensions.
/// The formats rotate through baseline and progressive JPEG, plain, interlaced and
/// translucent PNG, and animated GIF, so each decoder and the incremental paths take
/// part.
struct ServedImages: Sendable {
    /// What a correct load of one image delivers.
    struct Expected: Sendable, Hashable {
        let width: Int
        let height: Int
        let frames: Int
    }

    struct Image: Sendable {
        let name: String
        let expected: Expected
        let bytes: Int
    }

    let images: [Image]

    /// Makes `count` images in `folder` (deterministic: the same count gives the same
    /// files).
    static func make(count: Int, in folder: URL) throws -> ServedImages {
        var images: [Image] = []
        for index in 0..<count {
            // Width grows with the index, so no two images share a size. The still
            // images reach about 700 x 530 (1.5 MiB decoded); GIFs stay smaller, as
            // every frame is decoded.
            let width = 40 + index * 14
            let height = 30 + (index * 10) + (index % 3)
            let seed = UInt64(index + 1)
            let (name, data, frames): (String, Data, Int)
            switch index % 6 {
            case 0:
                (name, data, frames) = (
                    "\(index).jpg",
                    try JPEGFixtureEncoder(quality: 80).encode(SyntheticImage.photo(width: width, height: height, seed: seed)), 1
                )
            case 1:
                (name, data, frames) = (
                    "\(index).png", try PNGFixtureEncoder().encode(SyntheticImage.photo(width: width, height: height, seed: seed)), 1
                )
            case 2:
                let gifWidth = 24 + index * 3
                let gifHeight = 16 + index * 2
                let animation = try SyntheticAnimation.make(width: gifWidth, height: gifHeight, frameCount: 3, seed: seed)
                images.append(
                    try write(
                        "\(index).gif", try GIFFixtureEncoder().encode(animation), .init(width: gifWidth, height: gifHeight, frames: 3),
                        in: folder))
                continue
            case 3:
                (name, data, frames) = (
                    "\(index).jpg",
                    try JPEGFixtureEncoder(quality: 75, progressive: true).encode(
                        SyntheticImage.photo(width: width, height: height, seed: seed)), 1
                )
            case 4:
                (name, data, frames) = (
                    "\(index).png",
                    try PNGFixtureEncoder(interlaced: true).encode(SyntheticImage.photo(width: width, height: height, seed: seed)), 1
                )
            default:
                (name, data, frames) = (
                    "\(index).png", try PNGFixtureEncoder().encode(SyntheticImage.translucent(width: width, height: height, seed: seed)), 1
                )
            }
            images.append(try write(name, data, .init(width: width, height: height, frames: frames), in: folder))
        }
        // Sizes must stay unique, or the wrong-image check would be blind between twins.
        precondition(Set(images.map { PixelPair($0.expected) }).count == images.count, "two served images share a size")
        return ServedImages(images: images)
    }

    private static func write(_ name: String, _ data: Data, _ expected: Expected, in folder: URL) throws -> Image {
        try data.write(to: folder.appendingPathComponent(name))
        return Image(name: name, expected: expected, bytes: data.count)
    }

    /// Width and height alone, for the uniqueness check.
    private struct PixelPair: Hashable {
        let width, height: Int
        init(_ expected: Expected) { (width, height) = (expected.width, expected.height) }
    }
}
