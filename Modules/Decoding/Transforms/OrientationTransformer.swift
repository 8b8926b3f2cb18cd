import WebImageCore

/// Turns or mirrors an image (every frame of an animated one) as an EXIF orientation
/// says: `.right` turns it a quarter clockwise, `.down` half a turn, `.left` a quarter
/// anticlockwise, `.upMirrored` mirrors it left to right and `.downMirrored` top to
/// bottom. The decoders already apply a file's own orientation (`DecodeOptions`'s
/// `appliesOrientation`); this is for turning an upright image further.
///
/// ```swift
/// let turned = try OrientationTransformer(.right).transform(image)  // a quarter clockwise
/// ```
public struct OrientationTransformer: ImageTransforming, Hashable {
    public let orientation: ImageOrientation

    public init(_ orientation: ImageOrientation) {
        self.orientation = orientation
    }

    /// The orientation that turns an image `degrees` clockwise (a multiple of 90,
    /// negative for anticlockwise), then mirrors it as asked.
    ///
    /// - Returns: `nil` when `degrees` is not a multiple of 90.
    public init?(turningClockwise degrees: Int, mirroringHorizontally: Bool = false, mirroringVertically: Bool = false) {
        guard degrees % 90 == 0 else { return nil }
        let turns = ((degrees / 90) % 4 + 4) % 4
        // A vertical mirror is a horizontal one after half a turn.
        let mirrored = mirroringHorizontally != mirroringVertically
        let quarterTurns = (turns + (mirroringVertically ? 2 : 0)) % 4
        switch (quarterTurns, mirrored) {
        case (0, false): orientation = .up
        case (1, false): orientation = .right
        case (2, false): orientation = .down
        case (3, false): orientation = .left
        // Mirrored left to right after turning: the EXIF mirrored orientations, which
        // mirror first and then turn, with the turn reversed.
        case (0, true): orientation = .upMirrored
        case (1, true): orientation = .leftMirrored
        case (2, true): orientation = .downMirrored
        default: orientation = .rightMirrored
        }
    }

    public var identifier: String { "orient(\(orientation.rawValue))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        guard orientation != .up else { return image }
        let orientation = orientation
        let size = orientation.swapsWidthAndHeight ? PixelSize(width: image.size.height, height: image.size.width) : image.size
        return try image.mappingFrameBitmaps(size: size) { (bitmap) throws(ImageDecodingError) in
            try OrientationTransform.apply(orientation, to: bitmap)
        }
    }
}
