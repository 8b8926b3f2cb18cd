/// How the samples of one pixel are laid out in an ``ImageBitmap``.
///
/// Every format is 8 bits per sample. Colour is stored as decoded, with no gamma
/// correction or colour management applied.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Red, green, blue and alpha, one byte each, in that order in memory.
    ///
    /// Alpha is **straight** (not premultiplied): a pixel with alpha 0 keeps whatever
    /// colour the file gave it, and colour values do not shrink as alpha does. Opaque
    /// sources get alpha 255.
    case rgba8
    /// One byte of luminance per pixel and no alpha.
    ///
    /// Asked for with ``DecodeOptions/pixelFormat``. Colour sources are converted with
    /// the codec's own luminance formula (Rec. 601 weights); any alpha is dropped.
    case gray8

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .gray8: 1
        }
    }

    public var description: String { rawValue }
}
