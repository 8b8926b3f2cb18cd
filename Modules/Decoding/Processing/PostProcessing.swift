import WebImageCore

/// The steps every decoder applies to a decoded bitmap to honour ``DecodeOptions``:
/// scale down to ``DecodeOptions/maxPixelSize``, convert to the asked pixel format,
/// turn upright when ``DecodeOptions/appliesOrientation`` is set.
package enum PostProcessing {
    /// `bitmap` as the options ask. Skips every step that has nothing to do, so a
    /// plain full-size RGBA decode costs nothing here.
    package static func finish(
        _ bitmap: ImageBitmap,
        options: DecodeOptions,
        orientation: ImageOrientation
    ) throws(ImageDecodingError) -> (ImageBitmap, ImageOrientation) {
        var result = bitmap
        let target = options.targetSize(for: result.size)
        if target != result.size {
            result = try RowDownsampler.downsample(result, to: target)
        }
        if options.pixelFormat == .gray8 && result.pixelFormat == .rgba8 {
            result = try GrayConversion.gray(from: result)
        }
        if options.appliesOrientation && orientation != .up {
            return (try OrientationTransform.apply(orientation, to: result), .up)
        }
        return (result, orientation)
    }

    /// Applies ``finish(_:options:orientation:)`` to every frame of an image.
    package static func finish(_ image: DecodedImage, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        var image = image
        var orientation = image.orientation
        for index in image.frames.indices {
            (image.frames[index].bitmap, orientation) = try finish(
                image.frames[index].bitmap, options: options, orientation: image.orientation
            )
        }
        image.orientation = orientation
        return image
    }
}
