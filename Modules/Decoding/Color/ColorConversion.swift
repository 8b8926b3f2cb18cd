import Foundation
import WebImageCore

/// Brings a decoded image to the colour space `DecodeOptions.color` asks for, after
/// the decode (and its scale-down), on the pixels of the size that is kept.
package enum ColorConversion {
    /// `image` with its frames converted as `handling` asks; an image already in the
    /// asked space, or asked to ``ColorHandling/preserve``, is returned untouched and
    /// no transform runs. A transform the engine cannot build leaves the pixels as
    /// stored, taken to be sRGB as browsers take them, with a warning.
    ///
    /// The frames are converted in place: a decoder's frames are its own until returned.
    package static func apply(_ handling: ColorHandling, to image: DecodedImage, converter: any ColorConverting) -> DecodedImage {
        let current = image.colorProfile
        let target: ColorProfile?
        switch handling {
        case .preserve: return image
        case .convertToSRGB: target = nil
        case .convert(let profile): target = profile.isSRGB ? nil : profile
        }
        guard current != target, image.bitmap.pixelFormat == .rgba8 else { return image }
        var image = image
        do {
            let transform = try converter.transform(from: current.map { .profile($0) } ?? .sRGB, to: target)
            // Frames may share storage (a frame that repeats the one before): each once.
            var converted = Set<ObjectIdentifier>()
            for frame in image.frames where converted.insert(ObjectIdentifier(frame.bitmap.storage)).inserted {
                apply(transform, to: frame.bitmap)
            }
            // The frames composed on demand are converted as they are made.
            if let source = image.frameSource as? any FrameFinishing {
                image.frameSource = source.finishingFrames(size: nil) { frame in
                    apply(transform, to: frame.bitmap)
                    return frame
                }
            }
            image.colorProfile = target
        } catch {
            image.warnings.append(DecodeWarning(.colorProfileIgnored, "the embedded ICC profile is ignored: \(error)"))
            image.colorProfile = nil
            image.sourceColorProfile = nil
        }
        return image
    }

    private static func apply(_ transform: any ColorTransforming, to bitmap: ImageBitmap) {
        let stride = bitmap.bytesPerRow
        let width = bitmap.width
        bitmap.storage.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            if stride == width * 4 {
                transform.apply(base, pixelCount: width * bitmap.height)
            } else {
                for y in 0..<bitmap.height { transform.apply(base + y * stride, pixelCount: width) }
            }
        }
    }
}
