import Foundation
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
    let quality: ImageProxy.Quality
    /// Whether outputs keep the source's profile when the URL does not say (`scp:`).
    let keepsColorProfile: Bool

    /// The source's header, checked against the limits.
    func header(of data: Data) throws(ProxyError) -> ImageHeader {
        let header: ImageHeader
        do { header = try decoders.header(of: data) } catch { throw Self.proxyError(for: error) }
        guard header.frameCount <= limits.maxFrames else {
            throw ProxyError(.tooLarge, "the source has \(header.frameCount) frames; the limit is \(limits.maxFrames)")
        }
        guard header.totalPixelCount <= limits.maxResolution else {
            let frames = header.frameCount > 1 ? " x \(header.frameCount) frames" : ""
            throw ProxyError(
                .tooLarge, "the source is \(header.info.size)\(frames), over the limit of \(limits.maxResolution) pixels")
        }
        return header
    }

    /// What one render will do, decided once from the header: the plan, the decode
    /// prepared with the options the plan calls for (its header parsed once, for the
    /// memory budget's estimate and for the decode).
    struct Job {
        let header: ImageHeader
        let plan: ResizePlan
        let decode: PreparedImageDecode
        let options: ProcessingOptions
        let format: OutputFormat

        /// About how many bytes of pixels the decode holds at its peak; `nil` when unknown.
        var estimatedMemory: Int? { decode.estimatedMemory }
    }

    func job(for data: Data, header: ImageHeader, options: ProcessingOptions, format: OutputFormat) throws(ProxyError) -> Job {
        let plan = ResizePlan(source: header.displaySize, options: options)
        let decodeOptions = DecodeOptions(
            maxPixelSize: plan.decodePixelSize, maxPixelCount: limits.maxResolution,
            firstFrameOnly: !(format == .webp && header.frameCount > 1), appliesOrientation: true,
            maxFrameCount: limits.maxFrames, color: keepsProfile(options) ? .preserve : .convertToSRGB)
        let decode: PreparedImageDecode
        do { decode = try decoders.prepareDecode(data, options: decodeOptions) } catch { throw Self.proxyError(for: error) }
        return Job(header: header, plan: plan, decode: decode, options: options, format: format)
    }

    func render(_ data: Data, _ job: Job) throws(ProxyError) -> Data {
        let (plan, options, format) = (job.plan, job.options, job.format)
        if let planar = planarJPEG(data, job) { return planar }
        var image: DecodedImage
        do {
            image = try job.decode.decode()
        } catch {
            throw Self.proxyError(for: error)
        }
        do {
            if image.size != plan.scaledSize {
                image = try ResizeTransformer(width: plan.scaledSize.width, height: plan.scaledSize.height, mode: .stretch)
                    .transform(image)
            }
            if let crop = plan.cropSize, crop != image.size {
                let origin =
                    options.gravity == .smart
                    ? SmartCrop.origin(in: image.bitmap, crop: crop)
                    : ResizePlan.cropOrigin(scaled: image.size, crop: crop, gravity: options.gravity)
                image = try CropTransformer(PixelRect(x: origin.x, y: origin.y, width: crop.width, height: crop.height))
                    .transform(image)
            }
            // A JPEG source has no alpha to look for (its pixels are decoded opaque).
            let opaque = job.header.info.format == .jpeg
            return try encode(image, as: format, quality: options.quality, knownOpaque: opaque, profile: image.colorProfile)
        } catch {
            throw ProxyError(.processingFailed, "processing failed: \(error)")
        }
    }

    /// A JPEG source made into a JPEG with nothing to cut and nothing to turn: the
    /// planar path (`PlanarJPEGThumbnailer`), which stays in YCbCr; `nil` when it does
    /// not apply or declines the file. A source whose colour is not sRGB takes the RGBA
    /// path, where it is converted, or keeps its profile for the encoder to write.
    private func planarJPEG(_ data: Data, _ job: Job) -> Data? {
        guard job.format == .jpeg, job.header.info.format == .jpeg, job.header.info.orientation == .up,
            !job.header.hasNonSRGBColor || (decoders.colorConverter == nil && !keepsProfile(job.options)),
            job.plan.cropSize == nil || job.plan.cropSize == job.plan.scaledSize
        else { return nil }
        let thumbnailer = PlanarJPEGThumbnailer(quality: job.options.quality ?? quality.jpeg, maxPixelCount: limits.maxResolution)
        return thumbnailer.thumbnail(of: data, size: job.plan.scaledSize)
    }

    /// Whether `options` (or, when they do not say, the proxy's default) keep the profile.
    private func keepsProfile(_ options: ProcessingOptions) -> Bool {
        options.keepsColorProfile ?? keepsColorProfile
    }

    /// `image` in `format`; `profile` (the pixels' own, kept by `scp:0`) written with them.
    private func encode(
        _ image: DecodedImage, as format: OutputFormat, quality asked: Int?, knownOpaque: Bool, profile: ColorProfile?
    ) throws(ImageDecodingError) -> Data {
        switch format {
        case .jpeg:
            let pixels = knownOpaque ? image.bitmap : try AlphaFlattening.overWhite(image.bitmap)
            return try JPEGEncoder(quality: asked ?? quality.jpeg, colorProfile: profile).encode(pixels)
        case .png:
            // Opaque images are written as RGB: a quarter smaller, nothing lost.
            let opaque = knownOpaque || !AlphaFlattening.hasTransparency(image.bitmap)
            var encoder = PNGEncoder(compression: .fast, interlaced: false, dropsAlpha: opaque)
            encoder.colorProfile = profile
            return try encoder.encode(image.bitmap)
        case .webp:
            var encoder = WebPEncoder(quality: Float(asked ?? quality.webp))
            encoder.colorProfile = profile
            return image.isAnimated ? try encoder.encodeAnimation(image) : try encoder.encode(image.bitmap)
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
