internal import CWebImageColor
import Foundation
import WebImageCore

/// One LittleCMS transform from 16-bit big-endian RGBA (or gray as R = G = B) to 8-bit
/// RGBA, owned: freed when the last user lets it go.
///
/// Thread contract: immutable once built and run without LittleCMS's one-pixel cache,
/// so ``apply(bigEndian16:to:pixelCount:)`` may run on any number of threads at once.
final class LittleCMSWideTransform: WideColorTransforming, @unchecked Sendable {
    private let handle: OpaquePointer

    /// Builds the transform from `source` to `target` (`nil`: sRGB).
    ///
    /// - Throws: `ColorProfileError` `unusable` with LittleCMS's reason.
    init(source: ColorProfile, target: ColorProfile?) throws(ColorProfileError) {
        var message = [CChar](repeating: 0, count: 128)
        let made = source.data.withUnsafeBytes { sourceBytes in
            if let target {
                target.data.withUnsafeBytes { targetBytes in
                    wi_color_wide_transform_create(
                        sourceBytes.baseAddress, sourceBytes.count, targetBytes.baseAddress, targetBytes.count, &message)
                }
            } else {
                wi_color_wide_transform_create(sourceBytes.baseAddress, sourceBytes.count, nil, 0, &message)
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

    func apply(bigEndian16 source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, pixelCount: Int) {
        guard pixelCount > 0 else { return }
        wi_color_wide_transform_apply(
            handle, source.assumingMemoryBound(to: UInt8.self), destination.assumingMemoryBound(to: UInt8.self), pixelCount)
    }
}
