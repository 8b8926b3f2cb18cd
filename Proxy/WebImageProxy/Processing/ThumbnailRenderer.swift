import Foundation
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageEncoding

/// Turns a source's bytes into the output the options ask for: header and limits, a
/// decode at the planned size (JPEG scales in the DCT), the scale and the cut, then the
/// encoder. A JPEG made into a JPEG with nothing to cut or turn stays in YCbCr
/// (WebImageEncoding's `PlanarJPEGThumbnailer`). Blocks its thread for the work: `ImageProxy` runs it on the
/// library's own worker pool, never on Swift's cooperative threads.
struct ThumbnailRenderer: Sendable {
    let decoders: ImageDecoderRegistry
    let limits: SourceLimits
    let resultLimits: ResultLimits
    let quality: ImageProxy.Quality
    /// Whether outputs keep the source's profile when the URL does not say (`scp:`).
    let keepsColorProfile: Bool

    /// The source surveyed (its format sniffed and its header read, once for the render),
    /// its header checked against the limits (the server's, lowered where the URL asks):
    /// the frames it has at all, and the resolution of one frame (the frames an output is
    /// made of are checked with its format, in ``job(for:options:format:)``).
    func survey(_ data: Data, options: ProcessingOptions) throws(ProxyError) -> SurveyedImageSource {
        let limits = self.limits.narrowed(by: options.limits)
        guard data.count <= limits.maxBytes else {
            throw ProxyError(.tooLarge, "the source has \(data.count) bytes, over the limit of \(limits.maxBytes)")
        }
        let source: SurveyedImageSource
        do { source = try decoders.survey(data) } catch { throw Self.proxyError(for: error) }
        let header = source.header
        guard header.frameCount <= limits.maxFrames else {
            throw ProxyError(.tooLarge, "the source has \(header.frameCount) frames; the limit is \(limits.maxFrames)")
        }
        try Self.checkResolution(header, frames: 1, limit: limits.maxResolution)
        return source
    }

    /// Whether `options` (with the server's limit) let an output keep an animation:
    /// imgproxy's `max_animation_frames` above 1.
    func allowsAnimation(_ options: ProcessingOptions) -> Bool {
        limits.narrowed(by: options.limits).maxAnimationFrames > 1
    }

    /// How many of the source's frames an output in `format` is made of: the first
    /// `max_animation_frames` of an animation when the format keeps animations, else 1.
    func processedFrameCount(_ header: ImageHeader, options: ProcessingOptions, format: OutputFormat) -> Int {
        guard format.writesAnimations, header.frameCount > 1 else { return 1 }
        return min(header.frameCount, limits.narrowed(by: options.limits).maxAnimationFrames)
    }

    /// Refuses a source whose `frames` frames come to more than `limit` pixels, as
    /// imgproxy counts them (the frames processed, not the frames in the file).
    private static func checkResolution(_ header: ImageHeader, frames: Int, limit: Int) throws(ProxyError) {
        let (total, overflow) = header.info.size.pixelCount.multipliedReportingOverflow(by: max(1, frames))
        guard overflow || total > limit else { return }
        let counted = frames > 1 ? " x \(frames) frames" : ""
        throw ProxyError(.tooLarge, "the source is \(header.info.size)\(counted), over the limit of \(limit) pixels")
    }

    /// How an animation output's frames are decoded: always on demand. The encoder walks
    /// them once, frame by frame, so a render holds a frame or two whatever the count.
    /// Nothing is charged to a budget as it goes: the request's reservation
    /// (``Job/estimatedMemory``) counts the frame a walk holds and the encoder.
    static let animationBuffering = FrameBuffering(eagerByteLimit: 0)

    /// What one render will do, decided once from the header: the plan, the decode
    /// prepared from the survey with the options the plan calls for (the header the plan
    /// read is the one the memory budget's estimate and the decode read).
    struct Job {
        let header: ImageHeader
        let plan: ResizePlan
        let decode: PreparedImageDecode
        let options: ProcessingOptions
        let format: OutputFormat
        /// The frames the output is made of (1: a still of the first frame).
        let frameCount: Int
        /// The trim to make, which then replans from the trimmed size: the options', or
        /// none for an animated output (imgproxy trims no animation either).
        let trim: ProcessingOptions.Trim?

        /// About how many bytes the render holds at its peak: the decode's pixels, the
        /// scaled image and the output beside them, and for an animated output its
        /// encoder (``encoderMemory``); `nil` when the decode's is unknown.
        var estimatedMemory: Int? {
            decode.estimatedMemory.map { decoded in
                let (total, overflow) = (decoded + (plan.scaledSize.pixelCount + plan.outputSize.pixelCount) * 4)
                    .addingReportingOverflow(encoderMemory)
                return overflow ? .max : total
            }
        }

        /// What the encoder of an animated output holds (``AnimatedEncoderMemory``); 0
        /// for a still.
        var encoderMemory: Int {
            AnimatedEncoderMemory.bytes(format: format, pixels: plan.outputSize.pixelCount, frames: frameCount)
        }
    }

    func job(for source: SurveyedImageSource, options: ProcessingOptions, format: OutputFormat) throws(ProxyError) -> Job {
        let header = source.header
        let plan = ResizePlan(source: Self.shownSize(header, options), options: options)
        try check(plan, options: options)
        let limits = self.limits.narrowed(by: options.limits)
        let frameCount = processedFrameCount(header, options: options, format: format)
        try Self.checkResolution(header, frames: frameCount, limit: limits.maxResolution)
        let trim = frameCount > 1 ? nil : options.trim
        // The decode's own pixel limit counts every frame of the file. Where frames are
        // composed on demand (GIF, APNG, WebP and AVIF frames that need no turn), the
        // frames after those processed are never made, and those processed were checked
        // above; a decode that holds every frame keeps the limit on all of them.
        let composedOnDemand =
            [ImageFormat.gif, .png, .webp, .avif].contains(header.info.format)
            && (header.info.orientation == .up || !options.autoRotate)
        let decodePixels =
            frameCount > 1 && composedOnDemand ? max(limits.maxResolution, header.totalPixelCount) : limits.maxResolution
        // A trim looks for the borders at the full size, and plans again from what it keeps.
        let decodeOptions = DecodeOptions(
            maxPixelSize: trim == nil ? plan.decodePixelSize : nil, maxPixelCount: decodePixels,
            firstFrameOnly: frameCount == 1, appliesOrientation: options.autoRotate,
            maxFrameCount: limits.maxFrames, color: keepsProfile(options) ? .preserve : .convertToSRGB,
            frameBuffering: frameCount > 1 ? Self.animationBuffering : .default)
        let decode = source.prepareDecode(options: decodeOptions)
        return Job(header: header, plan: plan, decode: decode, options: options, format: format, frameCount: frameCount, trim: trim)
    }

    /// The size the source is shown at: its own orientation applied unless `ar:0`, then
    /// the turn the options ask for.
    static func shownSize(_ header: ImageHeader, _ options: ProcessingOptions) -> PixelSize {
        let stored = options.autoRotate ? header.displaySize : header.info.size
        let swaps = options.userOrientation.swapsWidthAndHeight
        return swaps ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    /// Refuses a plan whose output is over the result limits, from sizes alone.
    private func check(_ plan: ResizePlan, options: ProcessingOptions) throws(ProxyError) {
        let limits = resultLimits.narrowed(by: options.limits)
        let output = plan.outputSize
        guard max(output.width, output.height) <= limits.maxDimension else {
            throw ProxyError(.resultTooLarge, "the result would be \(output), over the limit of \(limits.maxDimension) pixels a side")
        }
        guard output.pixelCount <= limits.maxPixels else {
            throw ProxyError(.resultTooLarge, "the result would be \(output), over the limit of \(limits.maxPixels) pixels")
        }
    }

    func render(_ data: Data, _ job: Job) throws(ProxyError) -> Data {
        var plan = job.plan
        let (options, format) = (job.options, job.format)
        if let planar = planarJPEG(data, job) { return planar }
        var image: DecodedImage
        do {
            image = try job.decode.decode().keepingFirstFrames(job.frameCount)
        } catch {
            throw Self.proxyError(for: error)
        }
        do {
            // Turned and mirrored first, at the decoded size: everything after works in
            // the output's frame, as imgproxy's geometry does.
            image = try OrientationTransformer(options.userOrientation).transform(image)
            if let trim = job.trim {
                if let box = TrimBounds.find(in: image.bitmap, trim) { image = try CropTransformer(box).transform(image) }
                plan = ResizePlan(source: image.size, options: options)
                try check(plan, options: options)
            }
            if let cut = plan.sourceCut {
                image = try Self.cut(image, cut)
            }
            if image.size != plan.scaledSize {
                // The plan says when the image grows (`el`, or a minimum size past it).
                image = try ResizeTransformer(width: plan.scaledSize.width, height: plan.scaledSize.height, mode: .stretch, enlarges: true)
                    .transform(image)
            }
            if let cut = plan.resultCut {
                image = try Self.cut(image, cut)
            }
            // Filters of the result, before any canvas, as imgproxy orders them.
            if options.blur > 0 { image = try BlurTransformer(sigma: options.blur).transform(image) }
            if options.sharpen > 0 { image = try SharpenTransformer(sigma: options.sharpen).transform(image) }
            if options.pixelate > 1 { image = try PixelateTransformer(blockSize: options.pixelate).transform(image) }
            // Canvases and the background reach every frame, as each is composed.
            for canvas in plan.canvases {
                image = try image.mappingFrameBitmaps(size: canvas.size) { (bitmap) throws(ImageDecodingError) in
                    try CanvasPlacement.place(bitmap, on: canvas)
                }
            }
            // A JPEG source has no alpha to look for (its pixels are decoded opaque),
            // unless a canvas added some.
            var opaque = job.header.info.format == .jpeg && plan.canvases.isEmpty
            if let background = options.background, !opaque {
                image = try image.mappingFrameBitmaps(size: nil) { (bitmap) throws(ImageDecodingError) in
                    try AlphaFlattening.over(background, bitmap)
                }
                opaque = true
            }
            return try encode(image, as: format, options: options, knownOpaque: opaque, profile: image.colorProfile)
        } catch let error as ProxyError {
            throw error
        } catch {
            throw ProxyError(.processingFailed, "processing failed: \(error)")
        }
    }

    /// `cut` of `image`, at its origin or, for a smart cut, where `SmartCrop` finds the
    /// most detail.
    private static func cut(_ image: DecodedImage, _ cut: ResizePlan.Cut) throws(ImageDecodingError) -> DecodedImage {
        let origin = cut.origin ?? SmartCrop.origin(in: image.bitmap, crop: cut.size)
        return try CropTransformer(PixelRect(x: origin.x, y: origin.y, width: cut.size.width, height: cut.size.height))
            .transform(image)
    }

    /// A JPEG source made into a JPEG with nothing to cut, place or turn: the planar
    /// path (`PlanarJPEGThumbnailer`), which stays in YCbCr; `nil` when it does not
    /// apply or declines the file. A source whose colour is not sRGB takes the RGBA
    /// path, where it is converted, or keeps its profile for the encoder to write.
    private func planarJPEG(_ data: Data, _ job: Job) -> Data? {
        guard job.format == .jpeg, job.header.info.format == .jpeg, job.header.info.orientation == .up,
            job.options.userOrientation == .up, job.trim == nil, job.options.blur == 0, job.options.sharpen == 0, job.options.pixelate <= 1,
            !job.header.hasNonSRGBColor || (decoders.colorConverter == nil && !keepsProfile(job.options)),
            job.plan.sourceCut == nil, job.plan.resultCut == nil, job.plan.canvases.isEmpty,
            job.plan.scaledSize.width <= job.header.info.size.width, job.plan.scaledSize.height <= job.header.info.size.height
        else { return nil }
        let maxPixelCount = limits.narrowed(by: job.options.limits).maxResolution
        return try? FittingBytes.encodeIfWritten(.jpeg, startingAt: quality(of: .jpeg, job.options), maxBytes: job.options.maxBytes) {
            PlanarJPEGThumbnailer(quality: $0, maxPixelCount: maxPixelCount).thumbnail(of: data, size: job.plan.scaledSize)
        }
    }

    /// The quality `format` is written at: the URL's `q`, else its `fq` for the format,
    /// else the configured default (imgproxy's order). PNG, lossless, reads none.
    func quality(of format: OutputFormat, _ options: ProcessingOptions) -> Int {
        options.quality ?? options.formatQuality[format] ?? quality.default(for: format) ?? 100
    }

    /// Whether `options` (or, when they do not say, the proxy's default) keep the profile.
    private func keepsProfile(_ options: ProcessingOptions) -> Bool {
        options.keepsColorProfile ?? keepsColorProfile
    }

    /// `image` in `format`; `profile` (the pixels' own, kept by `scp:0`) written with them.
    private func encode(
        _ image: DecodedImage, as format: OutputFormat, options: ProcessingOptions, knownOpaque: Bool, profile: ColorProfile?
    ) throws(ImageDecodingError) -> Data {
        let pixels = format == .jpeg && !knownOpaque ? try AlphaFlattening.overWhite(image.bitmap) : image.bitmap
        let avifSpeed = quality.avifSpeed
        return try FittingBytes.encode(format, startingAt: quality(of: format, options), maxBytes: options.maxBytes) {
            (quality) throws(ImageDecodingError) -> Data in
            switch format {
            case .jpeg:
                return try JPEGEncoder(quality: quality, colorProfile: profile).encode(pixels)
            case .png:
                // Opaque images are written as RGB: a quarter smaller, nothing lost.
                let opaque = knownOpaque || !AlphaFlattening.hasTransparency(image.bitmap)
                var encoder = PNGEncoder(compression: .fast, interlaced: false, dropsAlpha: opaque)
                encoder.colorProfile = profile
                return try encoder.encode(image.bitmap)
            case .webp:
                var encoder = WebPEncoder(quality: Float(quality))
                encoder.colorProfile = profile
                return image.isAnimated ? try encoder.encodeAnimation(image) : try encoder.encode(image.bitmap)
            case .gif:
                // The frames processed; each frame's palette is its own (GIFEncoder).
                return try GIFEncoder().encode(image)
            case .avif:
                // A still: an animated source asked as AVIF gives its first frame.
                var encoder = AVIFEncoder(quality: quality, speed: avifSpeed)
                encoder.colorProfile = profile
                return try encoder.encode(image.bitmap)
            }
        }
    }

    /// A decoder's error as the answer it gets: not an image (415), over a limit or
    /// broken (422).
    static func proxyError(for error: ImageDecodingError) -> ProxyError {
        switch error.code {
        case .empty, .unknownFormat, .unsupported:
            ProxyError(.notAnImage, "the source is not an image the proxy reads: \(error.message)")
        case .tooLarge, .outOfMemory:
            ProxyError(.tooLarge, "the source is too large: \(error.message)")
        case .encodingFailed:
            ProxyError(.processingFailed, "encoding failed: \(error.message)")
        default:
            ProxyError(.brokenImage, "the source image is broken (\(error.code)): \(error.message)")
        }
    }
}
