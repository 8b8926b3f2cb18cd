internal import CLibTurboJPEG
import Foundation
import WebImageCore

/// Writes JPEG with libjpeg-turbo (TurboJPEG's `tjCompress2`).
///
/// RGBA bitmaps are written as colour and their alpha is dropped (JPEG has none): a
/// translucent pixel keeps the colour it has, so composite over a background first if
/// the transparent parts should show one. Gray bitmaps are written as one-component
/// grayscale. Orientation is not written: encode an upright bitmap
/// (`DecodeOptions.appliesOrientation`).
///
/// ```swift
/// let thumbnail = try registry.decode(data, options: DecodeOptions(maxPixelSize: 256, appliesOrientation: true))
/// let jpeg = try JPEGEncoder(quality: 80).encode(thumbnail.bitmap)
/// ```
///
/// Thread contract: a value; `encode` may run on any thread, at once on several (each
/// call has its own TurboJPEG handle).
public struct JPEGEncoder: ImageEncoding {
    /// How the two chroma components are sampled against luma.
    public enum Subsampling: Sendable, Hashable, CaseIterable {
        /// Full-resolution chroma: larger files, exact colour edges (text, line art).
        case s444
        /// Chroma halved horizontally.
        case s422
        /// Chroma halved both ways: what cameras and the web use for photos.
        case s420
    }

    public var format: ImageFormat { .jpeg }
    /// 1 to 100; 85 by default, libjpeg's usual range for photos being 75 to 90.
    public var quality: Int
    public var subsampling: Subsampling
    /// Write a progressive JPEG (libjpeg's standard scan script): smaller for large
    /// photos, shown coarse-to-fine while it downloads, slower to write and read.
    public var progressive: Bool
    /// The ICC profile to embed (APP2 `ICC_PROFILE` segments, split as the profile
    /// needs), for pixels in that space (`DecodedImage.colorProfile` of an image decoded
    /// with `ColorHandling.preserve`); `nil` writes none, which viewers read as sRGB.
    public var colorProfile: ColorProfile?

    public init(quality: Int = 85, subsampling: Subsampling = .s420, progressive: Bool = false, colorProfile: ColorProfile? = nil) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.colorProfile = colorProfile
    }

    /// The bytes of a JPEG file holding `bitmap`.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed` for an empty bitmap, a side
    ///   over 65,535, or when libjpeg-turbo fails (its message is kept).
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= 65_535, bitmap.height <= 65_535 else {
            throw ImageDecodingError(.encodingFailed, "JPEG cannot hold a \(bitmap.width)x\(bitmap.height) image", format: .jpeg)
        }
        guard let handle = tjInitCompress() else {
            throw ImageDecodingError(.encodingFailed, "libjpeg-turbo could not start a compressor", format: .jpeg)
        }
        defer { tjDestroy(handle) }
        let gray = bitmap.pixelFormat == .gray8
        let pixelFormat = gray ? TJPF_GRAY : TJPF_RGBA
        let sampling: TJSAMP
        switch (gray, subsampling) {
        case (true, _): sampling = TJSAMP_GRAY
        case (false, .s444): sampling = TJSAMP_444
        case (false, .s422): sampling = TJSAMP_422
        case (false, .s420): sampling = TJSAMP_420
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = bitmap.withUnsafeBytes { pixels in
            tjCompress2(
                handle, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bitmap.width), Int32(bitmap.bytesPerRow),
                Int32(bitmap.height), Int32(pixelFormat.rawValue), &output, &size, Int32(sampling.rawValue),
                Int32(min(100, max(1, quality))),
                progressive ? TJFLAG_PROGRESSIVE : 0)
        }
        guard status == 0, let output else {
            if let output { tjFree(output) }
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw ImageDecodingError(.encodingFailed, "libjpeg-turbo: \(message)", format: .jpeg)
        }
        if let colorProfile {
            defer { tjFree(output) }
            return JPEGProfileSegments.insert(colorProfile, into: UnsafeBufferPointer(start: output, count: Int(size)))
        }
        // The buffer is TurboJPEG's; Data takes it over and gives it back to tjFree.
        return Data(
            bytesNoCopy: output, count: Int(size),
            deallocator: .custom { pointer, _ in tjFree(pointer.assumingMemoryBound(to: UInt8.self)) })
    }
}
