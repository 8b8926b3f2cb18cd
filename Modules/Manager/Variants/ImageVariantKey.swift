import WebImageCore

/// The name of one processed result of a load, the same in every process and after a
/// restart: the key its stored variant has in the disk cache and the shared tier.
///
/// It is a canonical text made of everything that changes the result's pixels or bytes,
/// each field in one fixed order and spelling:
/// - the source's key: the request's ``ImageRequest/dataKey``, after the manager's
///   `cacheKeyFilter`;
/// - the decode options that change pixels: the longer side decoded to (the smaller of
///   the thumbnail size and ``ImageLoadOptions/scaleDownLargeImages``' limit; none when
///   it is absent or not positive), the first frame only, the orientation applied, the
///   pixel layout and the colour handling (a target profile by its digest);
/// - the transform chain: each transformer's identifier and version, in order;
/// - the output: the ``VariantStorage/encoderIdentifier`` (format and quality).
///
/// What changes no pixel is left out: priorities, cache options, headers, how an
/// animation's frames are buffered. So two spellings of one request (a thumbnail size
/// with or without `scaleDownLargeImages` above it, options in any order) meet at one key,
/// and any change of pixels gives another.
public struct ImageVariantKey: Hashable, Sendable, CustomStringConvertible {
    /// Raised when the stored text of a key, or what the manager stores under it, changes.
    public static let keyVersion = 1

    /// The source's cache key.
    public let source: CacheKey
    /// The canonical text, which is also the key in the caches.
    public let cacheKey: CacheKey

    /// The key of `request`'s result written by an encoder named `encoderIdentifier`, or
    /// `nil` when the request makes no variant: it keeps the source's pixels (full size, no
    /// transformer, every frame), so its stored form is the source's bytes.
    public init?(request: ImageRequest, encoderIdentifier: String) {
        let options = request.decodeOptions
        let transformers = request.context.transformers
        let size = options.maxPixelSize.flatMap { $0 > 0 ? $0 : nil }
        guard size != nil || options.firstFrameOnly || !transformers.isEmpty else { return nil }
        source = request.dataKey
        var fields = ["variant/v\(Self.keyVersion)", "src=" + Self.counted(request.dataKey.string)]
        fields.append("max=\(size.map(String.init) ?? "-")")
        fields.append("first=\(options.firstFrameOnly ? 1 : 0)")
        fields.append("orient=\(options.appliesOrientation ? 1 : 0)")
        fields.append("px=\(options.pixelFormat.rawValue)")
        fields.append("color=\(Self.color(options.color))")
        fields.append("t=\(transformers.count)" + transformers.map { ":" + Self.counted($0.identifier) + "@\($0.version)" }.joined())
        fields.append("out=" + Self.counted(encoderIdentifier))
        cacheKey = CacheKey(fields.joined(separator: "|"))
    }

    public var description: String { cacheKey.string }

    /// A text with its UTF-8 length before it, so that no identifier can pass for a field
    /// boundary.
    private static func counted(_ text: String) -> String { "\(text.utf8.count)'" + text }

    private static func color(_ handling: ColorHandling) -> String {
        switch handling {
        case .convertToSRGB: "srgb"
        case .preserve: "preserve"
        case .convert(let profile): "to-" + String(profile.digest, radix: 16) + "-\(profile.byteCount)"
        }
    }
}
