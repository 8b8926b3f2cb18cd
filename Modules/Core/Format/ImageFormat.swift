/// An image file format, named by a short identifier.
///
/// The library decodes ``png``, ``jpeg`` and ``gif``; it recognises ``webp``, ``heic``,
/// ``avif``, ``bmp`` and ``tiff`` from their first bytes so that they can be reported as
/// unsupported, or handed to a decoder you register yourself. Add formats of your own
/// with ``init(_:mimeType:)``.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// Short lowercase identifier, such as `"png"`.
    public let identifier: String
    /// The media type, such as `"image/png"`.
    public let mimeType: String

    public init(_ identifier: String, mimeType: String) {
        self.identifier = identifier
        self.mimeType = mimeType
    }

    public static let png = ImageFormat("png", mimeType: "image/png")
    public static let jpeg = ImageFormat("jpeg", mimeType: "image/jpeg")
    public static let gif = ImageFormat("gif", mimeType: "image/gif")
    public static let webp = ImageFormat("webp", mimeType: "image/webp")
    public static let heic = ImageFormat("heic", mimeType: "image/heic")
    public static let avif = ImageFormat("avif", mimeType: "image/avif")
    public static let bmp = ImageFormat("bmp", mimeType: "image/bmp")
    public static let tiff = ImageFormat("tiff", mimeType: "image/tiff")

    /// Every format ``sniff(_:)`` can recognise.
    public static let recognised: [ImageFormat] = [.png, .jpeg, .gif, .webp, .heic, .avif, .bmp, .tiff]

    public var description: String { identifier }

    // Hash and compare by identifier only: a format is its name.
    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
