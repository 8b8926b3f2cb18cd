/// What happens to a GIF frame's rectangle before the next frame is drawn.
public enum GIFFixtureDisposal: Int32, Sendable, Hashable, CaseIterable {
    /// No disposal specified (decoders treat it as ``none``).
    case unspecified = 0
    /// Leave the frame in place.
    case none = 1
    /// Clear the rectangle to the background (transparent, in browsers).
    case background = 2
    /// Restore the rectangle to what it was before this frame.
    case previous = 3
}

/// One image of a GIF fixture: palette indices for a rectangle of the screen.
public struct GIFFixtureFrame: Sendable, Hashable {
    /// `width * height` palette indices, rows top to bottom (in display order even
    /// when ``interlaced``: the encoder reorders them).
    public var indices: [UInt8]
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// A local colour table as RGB triples (1...256 entries), or `nil` to use the
    /// global one.
    public var localPalette: [UInt8]?
    /// Delay after this frame, in hundredths of a second.
    public var delayCentiseconds: Int
    public var disposal: GIFFixtureDisposal
    /// The palette index drawn as transparent, or `nil`.
    public var transparentIndex: UInt8?
    /// Store the rows in GIF's four interlace passes.
    public var interlaced: Bool
    /// Write a Graphic Control Extension (delay, disposal, transparency); `false`
    /// makes a plain GIF87a-style image.
    public var writesGraphicControl: Bool

    public init(
        indices: [UInt8], x: Int = 0, y: Int = 0, width: Int, height: Int,
        localPalette: [UInt8]? = nil, delayCentiseconds: Int = 10,
        disposal: GIFFixtureDisposal = .none, transparentIndex: UInt8? = nil,
        interlaced: Bool = false, writesGraphicControl: Bool = true
    ) {
        self.indices = indices
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.localPalette = localPalette
        self.delayCentiseconds = delayCentiseconds
        self.disposal = disposal
        self.transparentIndex = transparentIndex
        self.interlaced = interlaced
        self.writesGraphicControl = writesGraphicControl
    }
}

/// A whole GIF fixture: the logical screen, the global colour table, the loop count
/// and the frames.
public struct GIFFixtureAnimation: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// RGB triples (1...256 entries), or `nil` for no global colour table.
    public var globalPalette: [UInt8]?
    public var backgroundIndex: UInt8
    /// NETSCAPE2.0 loop count (0 loops forever), or `nil` to write no extension.
    public var loopCount: Int?
    public var frames: [GIFFixtureFrame]

    public init(
        width: Int, height: Int, globalPalette: [UInt8]?, backgroundIndex: UInt8 = 0,
        loopCount: Int? = 0, frames: [GIFFixtureFrame]
    ) {
        self.width = width
        self.height = height
        self.globalPalette = globalPalette
        self.backgroundIndex = backgroundIndex
        self.loopCount = loopCount
        self.frames = frames
    }
}
