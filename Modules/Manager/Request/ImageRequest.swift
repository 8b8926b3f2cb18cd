import Foundation
import WebImageCore

/// One image to load: a URL, options, a context, and the cache keys they make.
///
/// The keys are computed once, here, so a cache lookup hashes a ready string:
/// - ``dataKey``: the resource, the URL's absolute string (or what the manager's key
///   filter makes of it). The disk cache stores the downloaded bytes under it, so every
///   decoded variant of a URL shares one download and one file.
/// - ``imageKey``: the decoded variant: ``dataKey`` plus the decode size, first-frame
///   choice and transformer identifiers. The memory cache stores decoded images under it.
///
/// ```swift
/// let request = ImageRequest(url: url, options: [.highPriority],
///                            context: ImageLoadContext(thumbnailPixelSize: 256))
/// let image = try await manager.image(for: request)
/// ```
public struct ImageRequest: Sendable {
    /// The image's URL.
    public var url: URL { storage.url }
    /// How the load behaves (caches, priority, decoding).
    public var options: ImageLoadOptions { storage.options }
    /// Size, transformers, headers and per-request replacements of the manager's parts.
    public var context: ImageLoadContext { storage.context }
    /// The resource's cache key (see above).
    public var dataKey: CacheKey { storage.dataKey }
    /// The decoded variant's cache key (see above).
    public var imageKey: CacheKey { storage.imageKey }

    /// The fields, behind one reference: a request is copied at every step of a load
    /// (into its response, its run, its events), and a copy of this struct is one retain
    /// where a copy of the fields was one per URL, key, header table and cache in the
    /// context. A memory hit copies it several times.
    private let storage: Storage

    private final class Storage: Sendable {
        let url: URL
        let options: ImageLoadOptions
        let context: ImageLoadContext
        let dataKey: CacheKey
        let imageKey: CacheKey

        init(url: URL, options: ImageLoadOptions, context: ImageLoadContext, dataKey: CacheKey, imageKey: CacheKey) {
            self.url = url
            self.options = options
            self.context = context
            self.dataKey = dataKey
            self.imageKey = imageKey
        }
    }

    public init(url: URL, options: ImageLoadOptions = [], context: ImageLoadContext = .init()) {
        self.init(url: url, options: options, context: context, dataKey: url.absoluteString)
    }

    init(url: URL, options: ImageLoadOptions, context: ImageLoadContext, dataKey: String) {
        let resource = CacheKey(dataKey)
        let variant = Self.variant(options: options, context: context)
        storage = Storage(
            url: url, options: options, context: context, dataKey: resource,
            imageKey: variant.isEmpty ? resource : CacheKey(dataKey + "#" + variant))
    }

    /// The same request keyed by the manager's key filter.
    func keyed(by filter: (@Sendable (URL) -> String)?) -> ImageRequest {
        guard let filter else { return self }
        return ImageRequest(url: url, options: options, context: context, dataKey: filter(url))
    }

    /// The longer side the image is decoded to at most, from the thumbnail size and
    /// ``ImageLoadOptions/scaleDownLargeImages``.
    public var maxPixelSize: Int? { Self.maxPixelSize(options: options, context: context) }

    private static func maxPixelSize(options: ImageLoadOptions, context: ImageLoadContext) -> Int? {
        let scaleDown = options.contains(.scaleDownLargeImages) ? ImageLoadOptions.scaleDownPixelLimit : nil
        return [context.thumbnailPixelSize, scaleDown].compactMap { $0 }.min()
    }

    /// How the bytes are decoded: upright (EXIF orientation applied, so crops and
    /// resizes see what a viewer sees), RGBA, at ``maxPixelSize``; a long animation
    /// composed on demand unless ``ImageLoadOptions/allFrames`` asks for every frame.
    public var decodeOptions: DecodeOptions {
        DecodeOptions(
            maxPixelSize: maxPixelSize, firstFrameOnly: options.contains(.firstFrameOnly), appliesOrientation: true,
            frameBuffering: options.contains(.allFrames) ? .allFrames : .default)
    }

    /// This request with `newOptions` in place of its options, keeping its cache key.
    func with(options newOptions: ImageLoadOptions) -> ImageRequest {
        ImageRequest(url: url, options: newOptions, context: context, dataKey: dataKey.string)
    }

    /// This request asking for the decoded image: without
    /// ``ImageLoadOptions/returnDataWithoutDecoding``.
    var decoding: ImageRequest {
        guard options.contains(.returnDataWithoutDecoding) else { return self }
        return with(options: options.subtracting(.returnDataWithoutDecoding))
    }

    private static func variant(options: ImageLoadOptions, context: ImageLoadContext) -> String {
        var parts: [String] = []
        if let size = maxPixelSize(options: options, context: context) { parts.append("max=\(size)") }
        if options.contains(.firstFrameOnly) { parts.append("first") }
        if options.contains(.allFrames) { parts.append("all-frames") }
        parts.append(contentsOf: context.transformers.map(\.identifier))
        return parts.joined(separator: "|")
    }
}
