/// A colour engine: builds transforms between ICC profiles. WebImageColor implements it
/// on LittleCMS; the decoders ask for it through this protocol, so that an app that
/// wants no colour management links no colour engine.
///
/// Thread contract: `Sendable`; transforms may be asked for and used from any thread at
/// once.
public protocol ColorConverting: Sendable {
    /// A transform from pixels in `source` to pixels in `destination` (`nil`: sRGB),
    /// relative colorimetric.
    ///
    /// - Throws: ``ColorProfileError`` with ``ColorProfileError/Reason/unusable`` when the
    ///   engine cannot build the transform from these profiles.
    func transform(from source: ColorSource, to destination: ColorProfile?) throws(ColorProfileError) -> any ColorTransforming
}

/// What the pixels handed to a transform hold.
public enum ColorSource: Sendable, Hashable {
    /// RGBA pixels (straight alpha) in sRGB.
    case sRGB
    /// RGBA pixels (straight alpha) in an RGB profile, or gray pixels (R = G = B) in a
    /// gray profile.
    case profile(ColorProfile)
    /// Four bytes of ink per pixel, C, M, Y, K, stored inverted as Adobe's JPEGs store
    /// them (255 is no ink), in `profile`, or in the engine's default CMYK profile when
    /// `nil`.
    case invertedCMYK(ColorProfile?)
}

/// A built transform. Applying it runs no allocation and takes no lock.
///
/// Thread contract: `Sendable`; ``apply(_:pixelCount:)`` may run on any number of
/// threads at once.
public protocol ColorTransforming: Sendable {
    /// Converts `pixelCount` pixels of four bytes in place: the source's pixels in,
    /// RGBA out, alpha kept (255 for CMYK).
    func apply(_ pixels: UnsafeMutableRawPointer, pixelCount: Int)
}
