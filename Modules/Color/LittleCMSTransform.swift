internal import CWebImageColor
import Foundation
import WebImageCore

/// One LittleCMS transform, owned: freed when the last user lets it go.
///
/// Thread contract: immutable once built and run without LittleCMS's one-pixel cache,
/// so ``apply(_:pixelCount:)`` may run on any number of threads at once.
final class LittleCMSTransform: ColorTransforming, @unchecked Sendable {
    private let handle: OpaquePointer

    /// Builds the transform from `source` to `target` (`nil`: sRGB).
    ///
    /// - Throws: `ColorProfileError` `unusable` with LittleCMS's reason.
    init(source: ColorSource, target: ColorProfile?) throws(ColorProfileError) {
        let kind: wi_color_source
        let profile: ColorProfile?
        switch source {
        case .sRGB: (kind, profile) = (WI_COLOR_SOURCE_SRGB, nil)
        case .profile(let p): (kind, profile) = (WI_COLOR_SOURCE_PROFILE, p)
        case .invertedCMYK(let p):
            guard let p else { throw ColorProfileError(.unusable, "no CMYK profile") }
            (kind, profile) = (WI_COLOR_SOURCE_INVERTED_CMYK, p)
        }
        var message = [CChar](repeating: 0, count: 128)
        let made = Self.withBytes(profile) { sourceBytes, sourceCount in
            Self.withBytes(target) { targetBytes, targetCount in
                wi_color_transform_create(kind, sourceBytes, sourceCount, targetBytes, targetCount, &message)
            }
        }
        guard let made else {
            throw ColorProfileError(.unusable, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = made
    }

    deinit {
        wi_color_transform_destroy(handle)
    }

    func apply(_ pixels: UnsafeMutableRawPointer, pixelCount: Int) {
        guard pixelCount > 0 else { return }
        wi_color_transform_apply(handle, pixels.assumingMemoryBound(to: UInt8.self), pixelCount)
    }

    private static func withBytes<R>(_ profile: ColorProfile?, _ body: (UnsafeRawPointer?, Int) -> R) -> R {
        guard let profile else { return body(nil, 0) }
        return profile.data.withUnsafeBytes { body($0.baseAddress, $0.count) }
    }
}
