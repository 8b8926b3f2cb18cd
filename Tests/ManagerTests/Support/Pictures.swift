import Foundation
import WebImage
import WebImageFixtures
import WebImageTestSupport

/// The images every manager test serves, made by the C encoders at test time.
enum Pictures {
    static let photo = try! JPEGFixtureEncoder(quality: 90).encode(SyntheticImage.photo(width: 320, height: 240))
    static let progressivePhoto = try! JPEGFixtureEncoder(quality: 90, progressive: true)
        .encode(SyntheticImage.photo(width: 320, height: 240, seed: 7))
    static let badge = try! PNGFixtureEncoder().encode(SyntheticImage.translucent(width: 64, height: 48))
    static let animation = try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 60, height: 40, frameCount: 5))
    static let webpAnimation = try! WebPFixtureEncoder(lossless: true).encodeAnimation(
        [SyntheticImage.translucent(width: 50, height: 30), SyntheticImage.photo(width: 50, height: 30)], durations: [80, 120])
    /// Written by the library's own AVIF encoder (libaom), turned by its `irot` property.
    static let avifPhoto = try! AVIFEncoder(quality: 70, speed: 10).encode(SyntheticImage.photo(width: 64, height: 40), orientation: .right)
    /// A JPEG header followed by noise: sniffs as JPEG, does not decode.
    static let corrupt = DamagedImages.jpegHeaderThenNoise(photo)
    /// The photo's first two thirds: a whole header, so its size is known, then its
    /// scan stops; the decode fails as truncated.
    static let truncated = photo.prefix(photo.count * 2 / 3)

    /// Every picture by the file name it is served under.
    static let byName: [String: Data] = [
        "photo.jpg": photo, "progressive.jpg": progressivePhoto, "badge.png": badge, "animation.gif": animation,
        "corrupt.jpg": corrupt, "truncated.jpg": truncated, "animation.webp": webpAnimation, "photo.avif": avifPhoto,
    ]
}
