/// What a file's headers say, known before any pixel is decoded.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Width and height as stored (before orientation or downsampling).
    public var size: PixelSize
    /// How the pixels must be turned to display upright.
    public var orientation: ImageOrientation
    /// Progressive JPEG or interlaced PNG/GIF: partial images show the whole picture
    /// at low detail first.
    public var isProgressive: Bool

    public init(format: ImageFormat, size: PixelSize, orientation: ImageOrientation = .up, isProgressive: Bool = false) {
        self.format = format
        self.size = size
        self.orientation = orientation
        self.isProgressive = isProgressive
    }
}
