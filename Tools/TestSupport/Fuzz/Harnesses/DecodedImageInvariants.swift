import WebImageCore

/// What every decoded image must satisfy, whatever bytes it came from.
enum DecodedImageInvariants {
    /// Checks the shape of `image`: every frame has the canvas size and the asked pixel
    /// format, pixel buffers are exactly `bytesPerRow * height` bytes with rows at
    /// least `width * bytesPerPixel` long, the pixel limit held, and the options were
    /// honoured (size, frame count, orientation). With `partial`, the image is one an
    /// incremental decoder showed before `finish()`.
    static func check(_ image: DecodedImage, format: ImageFormat, options: DecodeOptions, partial: Bool = false) {
        fuzzCheck(image.format == format, "decoded as \(image.format), expected \(format)")
        // A partial image may already be whole (PNG says so once every row is in);
        // a final one never is partial.
        fuzzCheck(partial || !image.isPartial, "a final image marked partial")
        fuzzCheck(!image.frames.isEmpty, "no frames")
        fuzzCheck(image.width > 0 && image.height > 0, "empty image \(image.width)x\(image.height)")
        fuzzCheck(image.sourceSize.width > 0 && image.sourceSize.height > 0, "empty source size \(image.sourceSize)")
        if options.firstFrameOnly {
            fuzzCheck(image.frames.count == 1, "firstFrameOnly gave \(image.frames.count) frames")
        }
        if options.appliesOrientation {
            fuzzCheck(image.orientation == .up, "orientation applied but reported as \(image.orientation)")
        }
        var totalPixels = 0
        for (index, frame) in image.frames.enumerated() {
            let bitmap = frame.bitmap
            fuzzCheck(
                bitmap.size == image.size,
                "frame \(index) is \(bitmap.width)x\(bitmap.height), the canvas \(image.width)x\(image.height)")
            fuzzCheck(bitmap.pixelFormat == options.pixelFormat, "frame \(index) is \(bitmap.pixelFormat), asked \(options.pixelFormat)")
            fuzzCheck(bitmap.bytesPerRow >= bitmap.width * bitmap.pixelFormat.bytesPerPixel, "frame \(index): row too short")
            let byteCount = bitmap.withUnsafeBytes { $0.count }
            fuzzCheck(byteCount == bitmap.bytesPerRow * bitmap.height, "frame \(index): \(byteCount) bytes of pixels")
            fuzzCheck(bitmap.storage.byteCount >= byteCount, "frame \(index): storage smaller than its rows")
            fuzzCheck(frame.duration >= .zero && frame.storedDelay >= .zero, "frame \(index): negative duration")
            totalPixels += bitmap.width * bitmap.height
        }
        // The limit counts what the decoder holds, which is never less than its output.
        fuzzCheck(totalPixels <= options.maxPixelCount, "\(totalPixels) pixels decoded over a limit of \(options.maxPixelCount)")
        if !partial {
            // With the orientation applied the original one is gone: either way round.
            let expected = options.targetSize(for: image.sourceSize)
            let turned = PixelSize(width: expected.height, height: expected.width)
            fuzzCheck(
                image.size == expected || (options.appliesOrientation && image.size == turned),
                "decoded \(image.size) from a \(image.sourceSize) source; the options call for \(expected)")
        }
    }

    /// Checks a decode with `options` against the full-size RGBA decode of the same
    /// bytes: the same source, frames, loop count (unless only the first frame is read)
    /// and orientation, as the options say.
    static func checkVariant(_ variant: DecodedImage, against full: DecodedImage, options: DecodeOptions) {
        fuzzCheck(variant.sourceSize == full.sourceSize, "source size \(variant.sourceSize) vs \(full.sourceSize) at full size")
        // A first-frame decode stops reading at the second frame, so it may not reach
        // a loop extension written after the first.
        if !options.firstFrameOnly {
            fuzzCheck(variant.loopCount == full.loopCount, "loop count \(variant.loopCount) vs \(full.loopCount)")
        }
        let frames = options.firstFrameOnly ? 1 : full.frames.count
        fuzzCheck(variant.frames.count == frames, "\(variant.frames.count) frames, expected \(frames)")
        let orientation = options.appliesOrientation ? .up : full.orientation
        fuzzCheck(variant.orientation == orientation, "orientation \(variant.orientation), expected \(orientation)")
        var size = options.targetSize(for: full.size)
        if options.appliesOrientation && full.orientation.swapsWidthAndHeight {
            size = PixelSize(width: size.height, height: size.width)
        }
        fuzzCheck(variant.size == size, "variant is \(variant.size), expected \(size) for \(options)")
    }

    /// A short description for replay output.
    static func summary(_ image: DecodedImage) -> String {
        "\(image.format) \(image.width)x\(image.height) \(image.frames.count) frame(s) orientation \(image.orientation.rawValue)"
    }
}
