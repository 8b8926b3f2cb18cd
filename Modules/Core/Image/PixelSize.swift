/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width * height`, or `Int.max` when that product overflows.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// The longer of the two sides.
    public var longerSide: Int { Swift.max(width, height) }

    public var description: String { "\(width)x\(height)" }
}
