import WebImageCore

/// A rectangle of pixels: origin at the top left, x to the right, y down.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether the rectangle is non-empty and lies wholly inside an image of `size`.
    public func fits(in size: PixelSize) -> Bool {
        width > 0 && height > 0 && x >= 0 && y >= 0 && x <= size.width - width && y <= size.height - height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
