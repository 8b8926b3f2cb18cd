import Foundation
import WebImageCore

/// An extension record: its label and what decoding takes from it, read in place from
/// its first two sub-blocks (no copy of them is made).
struct GIFExtension {
    var label: UInt8
    /// The graphics control extension (label 0xF9), when this is one of 4 bytes.
    var graphicsControl: GIFGraphicsControl?
    /// The loop count of a NETSCAPE2.0 or ANIMEXTS1.0 application extension: sub-block
    /// id 1 holds a little-endian 16-bit count, 0 meaning forever. Stored as is.
    var loopCount: Int?
    /// The ICC profile of an ICCRGBG1012 application extension: its data sub-blocks,
    /// joined (filled in by `GIFFile.readExtension()`, which walks them all).
    var iccProfile: Data?

    /// The application identifier and code of the ICC profile extension.
    static let iccIdentifier = Array("ICCRGBG1012".utf8)
    private static let netscape = Array("NETSCAPE2.0".utf8)
    private static let animexts = Array("ANIMEXTS1.0".utf8)

    /// Reads the extension whose label is `label` and whose first sub-blocks, if any,
    /// are `first` and `second`.
    init(label: UInt8, first: UnsafeRawBufferPointer?, second: UnsafeRawBufferPointer?) {
        self.label = label
        if label == 0xF9, let block = first, block.count >= 4 {
            graphicsControl = GIFGraphicsControl(
                disposal: GIFDisposal(rawValue: (block[0] >> 2) & 0x07),
                delayHundredths: Int(block[1]) | Int(block[2]) << 8,
                transparentIndex: block[0] & 0x01 != 0 ? Int(block[3]) : nil
            )
        }
        if label == 0xFF, let identifier = first, identifier.count == 11, let data = second,
            identifier.elementsEqual(Self.netscape) || identifier.elementsEqual(Self.animexts),
            data.count >= 3, data[0] == 1
        {
            loopCount = Int(data[1]) | Int(data[2]) << 8
        }
    }
}

/// What a graphics control extension says about the frame that follows it.
struct GIFGraphicsControl {
    var disposal: GIFDisposal
    /// The delay as stored, in hundredths of a second.
    var delayHundredths: Int
    /// The palette index not drawn, if any.
    var transparentIndex: Int?

    /// The frame has no graphics control extension.
    static let none = GIFGraphicsControl(disposal: .none, delayHundredths: 0, transparentIndex: nil)
}

/// What happens to a frame's rectangle before the next frame is drawn.
enum GIFDisposal {
    /// 0 (unspecified), 1 (do not dispose) and the undefined 4 to 7: leave it.
    case none
    /// 2: clear the rectangle to transparent (the background colour is ignored, as
    /// browsers do).
    case background
    /// 3: put back what the rectangle held before the frame was drawn.
    case previous

    init(rawValue: UInt8) {
        switch rawValue {
        case 2: self = .background
        case 3: self = .previous
        default: self = .none
        }
    }
}
