/// How a new block of pixels is allocated (see ``PixelStorage``): from `malloc` or in a
/// mapping of its own, and whether its pages are mapped at birth.
///
/// One value says it for every step that makes pixels, so that a decoder hands the
/// same choice to the scaling and conversion steps that produce the bitmap it keeps.
package struct PixelAllocation: Sendable, Equatable {
    /// A mapping of its own, given back to the system when the storage goes away.
    package var mappedOnItsOwn: Bool
    /// The block's pages are mapped at once, for a caller that writes every byte.
    package var prefaulted: Bool

    package init(mappedOnItsOwn: Bool, prefaulted: Bool) {
        self.mappedOnItsOwn = mappedOnItsOwn
        self.prefaulted = prefaulted
    }

    /// A still image or a transform's output: from `malloc`, prefaulted.
    package static let still = PixelAllocation(mappedOnItsOwn: false, prefaulted: true)

    /// Pixels that live only while one frame is made (a full-size frame before it is
    /// scaled): from `malloc`, which hands the same warm block back for the next frame.
    package static let scratch = PixelAllocation(mappedOnItsOwn: false, prefaulted: false)

    /// The frames an animation keeps, `count` of `size` in `pixelFormat`: never
    /// prefaulted (frames are freed and taken again all through a decode, and
    /// prefaulting them raised the memory budget's peak), and each in a mapping of its
    /// own when they come to more than ``PixelStorage/mallocBytesPerAnimation`` (an
    /// overflow counts as more).
    package static func animationFrames(of size: PixelSize, count: Int, pixelFormat: PixelFormat) -> PixelAllocation {
        let (frameBytes, o1) = size.pixelCount.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        let (animationBytes, o2) = frameBytes.multipliedReportingOverflow(by: Swift.max(count, 1))
        return PixelAllocation(
            mappedOnItsOwn: o1 || o2 || animationBytes > PixelStorage.mallocBytesPerAnimation, prefaulted: false)
    }
}
