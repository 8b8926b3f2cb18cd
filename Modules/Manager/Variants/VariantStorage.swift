import WebImageCore

/// How a manager stores the images its loads make (thumbnails, transformed images) so
/// that a restarted process, or another member of a fleet, serves them without decoding
/// the source again (``ImageManager/Configuration/variantStorage``).
///
/// A variant is stored when a load decodes a source into something other than the
/// source's own pixels: a thumbnail size (``ImageLoadContext/thumbnailPixelSize``,
/// ``ImageLoadOptions/scaleDownLargeImages``), the first frame of an animation
/// (``ImageLoadOptions/firstFrameOnly``) or transformers. A load of the full,
/// untransformed image stores none: its variant is the source's bytes, in their original
/// format, which the disk cache already keeps. The image is written with ``encoder``, in
/// the stored format the Manager's "Stored variants" article describes, in the disk cache and, with
/// ``storesInSharedCache``, in the shared tier, under its ``ImageVariantKey``.
///
/// ```swift
/// import WebImage
///
/// var configuration = WebImageConfiguration()
/// configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
/// let manager = ImageManager(configuration: configuration)
/// ```
public struct VariantStorage: Sendable {
    /// Writes each variant. A lossless encoder (PNG) keeps the pixels exactly; a lossy one
    /// makes a restarted manager's image differ slightly from the one it made, so its
    /// settings (the quality) belong in ``encoderIdentifier``. An animated result is stored
    /// only when the encoder writes animations (`AnimatedImageEncoding`); otherwise it is
    /// made from the source each time.
    public var encoder: any ImageEncoding
    /// Names the encoder and every setting that changes its output, for the variant's key:
    /// another encoder or quality makes other keys, so variants written otherwise are not
    /// served. By default the encoder's format (`png`).
    public var encoderIdentifier: String
    /// Whether variants also go to the manager's shared tier
    /// (``ImageManager/Configuration/sharedCache``), and are looked for there after the
    /// disk cache. On by default; without a tier it changes nothing.
    public var storesInSharedCache: Bool

    public init(encoder: any ImageEncoding, encoderIdentifier: String? = nil, storesInSharedCache: Bool = true) {
        self.encoder = encoder
        self.encoderIdentifier = encoderIdentifier ?? encoder.format.identifier
        self.storesInSharedCache = storesInSharedCache
    }
}
