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

    /// A transform from 16-bit RGBA pixels in the RGB profile `source`, or gray pixels
    /// (R = G = B) in a gray one, to 8-bit RGBA in `destination` (`nil`: sRGB), relative
    /// colorimetric: a 16-bit source converted before its samples are rounded to 8 bits,
    /// so the rounding happens once.
    ///
    /// An engine without one keeps the default, which throws; a decoder then reduces
    /// the samples to 8 bits and converts those.
    ///
    /// - Throws: ``ColorProfileError`` with ``ColorProfileError/Reason/unusable`` when
    ///   the engine cannot build the transform (or builds none at this depth).
    func wideTransform(from source: ColorProfile, to destination: ColorProfile?) throws(ColorProfileError)
        -> any WideColorTransforming
}

extension ColorConverting {
    /// Builds none: the engine converts 8-bit pixels only.
    public func wideTransform(from source: ColorProfile, to destination: ColorProfile?) throws(ColorProfileError)
        -> any WideColorTransforming
    {
        throw ColorProfileError(.unusable, "this colour engine converts 8-bit pixels only")
    }
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

/// A built transform from 16-bit to 8-bit pixels. Applying it runs no allocation and
/// takes no lock.
///
/// Thread contract: `Sendable`; ``apply(bigEndian16:to:pixelCount:)`` may run on any
/// number of threads at once.
public protocol WideColorTransforming: Sendable {
    /// Converts `pixelCount` RGBA pixels of four 16-bit samples, each big-endian (as PNG
    /// stores them), from `source` into RGBA pixels of four bytes at `destination`,
    /// alpha kept. The two buffers must not overlap.
    func apply(bigEndian16 source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, pixelCount: Int)
}
