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
        guard current != target else { return image }
        var image = image
        do {
            let transform = try converter.transform(from: current.map { .profile($0) } ?? .sRGB, to: target)
            let levels = image.bitmap.pixelFormat == .gray8 ? grayLevels(through: transform) : nil
            // Frames may share storage (a frame that repeats the one before): each once.
            var converted = Set<ObjectIdentifier>()
            for frame in image.frames where converted.insert(ObjectIdentifier(frame.bitmap.storage)).inserted {
                if let levels {
                    apply(levels, to: frame.bitmap)
                } else {
                    apply(transform, to: frame.bitmap)
                }
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

    /// What each gray level becomes: the neutral pixel (v, v, v) through `transform`,
    /// back to one byte with Rec. 601's weights (the decoders' own for gray). A gray
    /// decode of a colour file has lost its colours already, so its levels are taken as
    /// neutrals of the file's space; the tone curve and the white point are what apply.
    private static func grayLevels(through transform: any ColorTransforming) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: 4 * 256)
        for level in 0..<256 {
            for channel in 0..<3 { pixels[4 * level + channel] = UInt8(level) }
        }
        pixels.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixelCount: 256) }
        return (0..<256).map { (level: Int) -> UInt8 in
            let red = 0.299 * Double(pixels[4 * level])
            let green = 0.587 * Double(pixels[4 * level + 1])
            let blue = 0.114 * Double(pixels[4 * level + 2])
            return UInt8(min(255, (red + green + blue).rounded()))
        }
    }

    private static func apply(_ levels: [UInt8], to bitmap: ImageBitmap) {
        let stride = bitmap.bytesPerRow
        let width = bitmap.width
        bitmap.storage.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in 0..<bitmap.height {
                let row = base + y * stride
                for x in 0..<width { row[x] = levels[Int(row[x])] }
            }
        }
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
