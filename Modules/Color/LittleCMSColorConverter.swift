import WebImageCore

/// The colour engine on LittleCMS 2: converts decoded images to sRGB, or to a profile
/// of your choice, relative colorimetric, alpha kept.
///
/// Hand it to a decoder registry (the `WebImage` umbrella does so by default):
///
/// ```swift
/// import WebImageColor
/// import WebImageDecoding
///
/// var registry = ImageDecoderRegistry.standard
/// registry.colorConverter = LittleCMSColorConverter.shared
/// let image = try registry.decode(data)  // pixels in sRGB, whatever the file's profile
/// ```
///
/// Transforms are built once per source and target and kept (``cacheCapacity`` of them,
/// least recently used dropped first). An sRGB image is never handed here: the registry
/// skips the conversion.
///
/// CMYK without an embedded profile goes through ``defaultCMYKProfile`` when one is
/// set, and otherwise through the complement formula browsers use for such files
/// (r = c * k / 255 on Adobe's inverted values).
///
/// Thread contract: `Sendable`; call from any number of threads at once.
public final class LittleCMSColorConverter: ColorConverting {
    /// A converter with the default settings, shared by the umbrella and the proxy.
    public static let shared = LittleCMSColorConverter()

    /// The CMYK profile for CMYK files that embed none; `nil` for the complement formula.
    public let defaultCMYKProfile: ColorProfile?
    /// The most transforms kept.
    public var cacheCapacity: Int { cache.capacity }

    private let cache: TransformCache<any ColorTransforming>
    private let wideCache: TransformCache<any WideColorTransforming>

    /// A converter that keeps at most `cacheCapacity` transforms.
    ///
    /// - Parameters:
    ///   - defaultCMYKProfile: a CMYK profile for CMYK files that embed none, such as the
    ///     press standard your print sources follow; `nil` shows them as browsers do.
    ///   - cacheCapacity: the most transforms kept (at least 1).
    public init(defaultCMYKProfile: ColorProfile? = nil, cacheCapacity: Int = 32) {
        self.defaultCMYKProfile = defaultCMYKProfile
        cache = TransformCache(capacity: cacheCapacity)
        wideCache = TransformCache(capacity: cacheCapacity)
    }

    /// A transform from `source` to `destination` (`nil`: sRGB), built once and kept.
    ///
    /// - Throws: `ColorProfileError` `unusable` when LittleCMS refuses a profile.
    public func transform(from source: ColorSource, to destination: ColorProfile?) throws(ColorProfileError) -> any ColorTransforming {
        var source = source
        if case .invertedCMYK(nil) = source {
            guard let defaultCMYKProfile else {
                guard destination == nil || destination?.isSRGB == true else {
                    throw ColorProfileError(.unusable, "no CMYK profile to convert to another profile than sRGB")
                }
                return NaiveCMYKTransform()
            }
            source = .invertedCMYK(defaultCMYKProfile)
        }
        let key = TransformCache<any ColorTransforming>.Key(source: source, target: destination)
        return try cache.transform(for: key) { () throws(ColorProfileError) -> any ColorTransforming in
            try LittleCMSTransform(source: key.source, target: key.target)
        }
    }

    /// A transform from 16-bit RGBA in the RGB profile `source`, or gray (R = G = B) in a
    /// gray one, to 8-bit RGBA in `destination` (`nil`: sRGB), built once and kept (in a
    /// table of its own, of ``cacheCapacity`` too).
    ///
    /// - Throws: `ColorProfileError` `unusable` when LittleCMS refuses a profile, the
    ///   source is neither RGB nor gray, or the target is not RGB.
    public func wideTransform(from source: ColorProfile, to destination: ColorProfile?) throws(ColorProfileError)
        -> any WideColorTransforming
    {
        let key = TransformCache<any WideColorTransforming>.Key(source: .profile(source), target: destination)
        return try wideCache.transform(for: key) { () throws(ColorProfileError) -> any WideColorTransforming in
            try LittleCMSWideTransform(source: source, target: destination)
        }
    }

    /// How many transforms are kept now (8-bit and 16-bit together).
    public var cachedTransformCount: Int { cache.count + wideCache.count }
}
