/// The EXIF orientation of an image (tag 0x0112): how the stored pixels must be turned
/// to be displayed upright.
///
/// Decoders **expose** the orientation and leave the pixels as stored, the way UIKit's
/// `imageOrientation` does, so nothing is copied unless asked. Set
/// ``DecodeOptions/appliesOrientation`` to get upright pixels instead; the decoded
/// image then reports ``up``. Values outside 1...8 (0 is common) read as ``up``.
public enum ImageOrientation: UInt8, Sendable, Hashable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180 degrees.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// 6: must be turned 90 degrees clockwise to display.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// 8: must be turned 90 degrees counter-clockwise to display.
    case left = 8

    /// The orientation for an EXIF value; anything outside 1...8 is ``up``.
    public init(exifValue: Int) {
        self = (1...8).contains(exifValue) ? ImageOrientation(rawValue: UInt8(exifValue))! : .up
    }

    /// Whether displaying swaps width and height (orientations 5 to 8).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
