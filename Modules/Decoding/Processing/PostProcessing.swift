import WebImageCore

/// The steps every decoder applies to a decoded bitmap to honour ``DecodeOptions``:
/// scale down to ``DecodeOptions/maxPixelSize``, convert to the asked pixel format,
/// turn upright when ``DecodeOptions/appliesOrientation`` is set.
package enum PostProcessing {
    /// `bitmap` as the options ask. Skips every step that has nothing to do, so a
    /// plain full-size RGBA decode costs nothing here. A step's output is allocated as
    /// `allocation` says: an animation's frame reader passes its frames' allocation.
    package static func finish(
        _ bitmap: ImageBitmap,
        options: DecodeOptions,
        orientation: ImageOrientation,
        allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) -> (ImageBitmap, ImageOrientation) {
        var result = bitmap
        let target = options.targetSize(for: result.size)
        if target != result.size {
            result = try RowDownsampler.downsample(result, to: target, allocation: allocation)
        }
        if options.pixelFormat == .gray8 && result.pixelFormat == .rgba8 {
            result = try GrayConversion.gray(from: result, allocation: allocation)
        }
        if options.appliesOrientation && orientation != .up {
            return (try OrientationTransform.apply(orientation, to: result, allocation: allocation), .up)
        }
        return (result, orientation)
    }

    /// Applies ``finish(_:options:orientation:allocation:)`` to every frame of an
    /// image; an animation's new frames are allocated as its frames are.
    package static func finish(_ image: DecodedImage, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        var image = image
        var orientation = image.orientation
        let allocation: PixelAllocation =
            image.frames.count > 1
            ? options.frameAllocation(canvas: image.frames[0].bitmap.size, frameCount: image.frames.count) : .still
        for index in image.frames.indices {
            (image.frames[index].bitmap, orientation) = try finish(
                image.frames[index].bitmap, options: options, orientation: image.orientation, allocation: allocation
            )
        }
        image.orientation = orientation
        return image
    }
}

extension DecodeOptions {
    /// How the frames an animation of `frameCount` frames on a `canvas` keeps are
    /// allocated: counted at the size and pixel format these options make of them, so
    /// that a long animation scaled down small stays in `malloc`, and one that is still
    /// long once scaled maps every frame.
    package func frameAllocation(canvas: PixelSize, frameCount: Int) -> PixelAllocation {
        .animationFrames(of: targetSize(for: canvas), count: frameCount, pixelFormat: pixelFormat)
    }

    /// How a frame reader allocates an RGBA frame of `size` it has made: as a kept
    /// frame (`frames`) when `finish` keeps it as it is, or as scratch when `finish`
    /// scales or converts it into storage of its own.
    package func allocation(ofDecoded size: PixelSize, frames: PixelAllocation) -> PixelAllocation {
        targetSize(for: size) == size && pixelFormat == .rgba8 ? frames : .scratch
    }
}
