import WebImageCore

/// Cuts a rectangle out of an image (every frame of an animated one).
///
/// A rectangle not wholly inside the image is an error (`invalidDimensions`), not a
/// silently smaller result.
public struct CropTransformer: ImageTransforming, Hashable {
    public let rect: PixelRect

    public init(_ rect: PixelRect) {
        self.rect = rect
    }

    public var identifier: String { "crop(\(rect))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        try RegionResampler.apply(rect, target: rect.size, to: image)
    }
}
