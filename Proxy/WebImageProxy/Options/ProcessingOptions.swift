import Foundation
import WebImageCore
import WebImageDecoding

/// What one proxy URL asks for: the size and how to reach it, which part to keep, and
/// the output's format and quality. Parsed from imgproxy's processing options (see
/// `OptionParser`), with imgproxy's defaults and meaning; two URLs that ask for the same
/// thing have equal options, which is how the proxy finds a request it has already
/// answered or is answering.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image meets the box of ``width`` x ``height`` (imgproxy's resizing types).
    public enum ResizeMode: String, Sendable, Hashable, CaseIterable {
        /// The whole image, aspect ratio kept, as large as fits in the box.
        case fit
        /// The box's aspect ratio: as large as covers the box, then cut to it, keeping
        /// the part ``gravity`` names.
        case fill
        /// As ``fill``, but an image smaller than the box is cut to the box's aspect
        /// ratio instead of being left smaller than the box on one side only.
        case fillDown = "fill-down"
        /// Each side scaled on its own (the aspect ratio is not kept); a side of 0 keeps
        /// the source's.
        case force
        /// ``fill`` when the box and the image are both landscape or both portrait,
        /// ``fit`` otherwise.
        case auto
    }

    /// Where a cut, an extension or a focus sits (imgproxy's gravity).
    public struct Gravity: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case center = "ce"
            case north = "no"
            case south = "so"
            case east = "ea"
            case west = "we"
            case northEast = "noea"
            case northWest = "nowe"
            case southEast = "soea"
            case southWest = "sowe"
            /// The busiest part: the window with the most edge energy (the sum of
            /// luminance differences between neighbours) along the side that is cut.
            case smart = "sm"
            /// The point at (``x``, ``y``), each a fraction of the side (0 to 1), as
            /// near the centre of the cut as the image allows.
            case focusPoint = "fp"
        }

        public var kind: Kind
        /// The offset from the edge the kind names (towards the centre); a value of 1 or
        /// more is in pixels (times ``ProcessingOptions/dpr``), below 1 a fraction of the
        /// side. For ``Kind/focusPoint``, the point's fraction of the width.
        public var x: Double
        /// As ``x``, vertically.
        public var y: Double

        public init(_ kind: Kind, x: Double = 0, y: Double = 0) {
            self.kind = kind
            self.x = x
            self.y = y
        }

        public static let center = Gravity(.center)
    }

    /// A cut of the source before it is scaled (imgproxy's `crop`).
    public struct Crop: Sendable, Hashable {
        /// 0 keeps the whole width; below 1, a fraction of it; 1 or more, pixels.
        public var width: Double
        /// As ``width``, for the height.
        public var height: Double
        /// Where the cut sits; `nil` follows ``ProcessingOptions/gravity``.
        public var gravity: Gravity?

        public init(width: Double, height: Double, gravity: Gravity? = nil) {
            self.width = width
            self.height = height
            self.gravity = gravity
        }
    }

    public var resizeMode: ResizeMode = .fit
    /// The box's width; 0 takes it from the height and the image's aspect ratio (and
    /// with a height of 0 too, the image keeps its size).
    public var width = 0
    /// The box's height; 0 as for ``width``.
    public var height = 0
    /// The smallest width the result may have, whatever the box asks (`mw`).
    public var minWidth = 0
    /// The smallest height the result may have (`mh`).
    public var minHeight = 0
    /// Multiplies the box and the scale (`z`), per side.
    public var zoomWidth = 1.0
    public var zoomHeight = 1.0
    /// The device pixel ratio (`dpr`): the box and pixel offsets are multiplied by it,
    /// never beyond the source's own size unless ``enlarge``.
    public var dpr = 1.0
    /// Whether a source smaller than the box is scaled up to it (`el`); off by default.
    public var enlarge = false
    /// Where the result sits on a canvas of the box's size when it is smaller than the
    /// box (`ex`); `nil`: no canvas.
    public var extend: Gravity?
    /// Where the result sits on a canvas of the box's aspect ratio (`exar`); `nil`: none.
    public var extendAspectRatio: Gravity?
    /// Which part a fill keeps, and where a crop sits by default.
    public var gravity: Gravity = .center
    /// An opaque colour.
    public struct Color: Sendable, Hashable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Space added around the result, in pixels before the pixel ratio (`pd`).
    public struct Padding: Sendable, Hashable {
        public var top: Int
        public var right: Int
        public var bottom: Int
        public var left: Int

        public init(top: Int, right: Int, bottom: Int, left: Int) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }
    }

    /// Borders of one colour cut away before anything else (`t`).
    public struct Trim: Sendable, Hashable {
        /// How far (0 to 255 in any channel) a pixel may be from the background and
        /// still be background.
        public var threshold: Double
        /// The background's colour; `nil`: the top-left pixel's.
        public var color: Color?
        /// Whether as much is cut from the left as from the right: the smaller of the two.
        public var equalHorizontal: Bool
        /// Whether as much is cut from the top as from the bottom: the smaller of the two.
        public var equalVertical: Bool

        public init(threshold: Double, color: Color? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
            self.threshold = threshold
            self.color = color
            self.equalHorizontal = equalHorizontal
            self.equalVertical = equalVertical
        }
    }

    /// A cut of the source before scaling (`c`).
    public var crop: Crop?
    /// Borders trimmed from the source before its size is planned (`t`); `nil`: none.
    public var trim: Trim?
    /// The colour under transparent pixels, canvases and padding (`bg`): the output is
    /// then opaque. `nil`: they stay transparent, and a JPEG output shows white.
    public var background: Color?
    /// Space around the result (`pd`), filled like a canvas.
    public var padding: Padding?
    /// A Gaussian blur's standard deviation in pixels (`bl`); 0: none.
    public var blur = 0.0
    /// An unsharp mask's standard deviation in pixels (`sh`); 0: none.
    public var sharpen = 0.0
    /// The side of the blocks the result is pixelated into (`pix`); 1 or less: none.
    public var pixelate = 1
    /// Whether the source's own orientation (EXIF) is applied (`ar`); on by default.
    public var autoRotate = true
    /// Degrees clockwise the image is turned, after its own orientation (`rot`): 0, 90,
    /// 180 or 270.
    public var rotation = 0
    /// Whether the image is mirrored left to right (`fl`), after turning.
    public var flipHorizontal = false
    /// Whether the image is mirrored top to bottom (`fl`), after turning.
    public var flipVertical = false

    /// The turn and mirror the options ask for, after the source's own orientation.
    var userOrientation: ImageOrientation {
        OrientationTransformer(
            turningClockwise: rotation, mirroringHorizontally: flipHorizontal, mirroringVertically: flipVertical)?.orientation ?? .up
    }
    /// Changes nothing but the URL, so a cache in front sees a new one (`cb`).
    public var cacheBuster: String?
    /// The name a browser saves the output as, without extension (`fn`); `nil` takes
    /// the source's.
    public var filename: String?
    /// Whether a browser is told to save the output rather than show it (`att`).
    public var returnsAttachment = false
    /// Source formats answered as they are, unprocessed (`skp`): `jpeg`, `png`, `gif`,
    /// `webp`, `avif`.
    public var skipsProcessing: Set<String> = []
    /// Whether every source is answered as it is (`raw`).
    public var raw = false
    /// Limits this URL sets for itself, below the server's.
    public var limits = URLLimits()
    /// 1 to 100 (`q`), for every format; `nil` uses ``formatQuality``, then the
    /// configured default of the output format.
    public var quality: Int?
    /// The most bytes a lossy output may have (`mb`): it is written again at lower
    /// qualities until it fits, down to quality 10.
    public var maxBytes: Int?
    /// 1 to 100 per output format (`fq:jpeg:70:avif:50`), below ``quality``.
    public var formatQuality: [OutputFormat: Int] = [:]
    /// The output's format; `nil` chooses it from the client's `Accept` and the source.
    public var format: OutputFormat?
    /// When a signed URL stops being served (`exp:` in seconds since 1970); `nil`: never.
    public var expires: Date?
    /// Whether the output keeps the source's colour profile (`scp:0`): the pixels stay
    /// as stored and the encoder writes the profile. `false` (`scp:1`) converts to sRGB
    /// and writes none; `nil` takes the proxy's default
    /// (`ImageProxy.Configuration.keepsColorProfile`).
    public var keepsColorProfile: Bool?

    public init(
        resizeMode: ResizeMode = .fit, width: Int = 0, height: Int = 0, gravity: Gravity = .center,
        quality: Int? = nil, format: OutputFormat? = nil, expires: Date? = nil
    ) {
        self.resizeMode = resizeMode
        self.width = width
        self.height = height
        self.gravity = gravity
        self.quality = quality
        self.format = format
        self.expires = expires
    }
}

/// The formats the proxy writes.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    case avif
    case gif

    /// The format an option or extension names: `jpeg`, `jpg`, `png`, `webp`, `avif`, `gif`.
    public init?(name: String) {
        switch name.lowercased() {
        case "jpeg", "jpg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The extension of a file in this format, with its dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        case .webp: ".webp"
        case .avif: ".avif"
        case .gif: ".gif"
        }
    }

    /// The `Content-Type` of a response in this format.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .gif: "image/gif"
        }
    }

    /// Whether an output in this format keeps an animation's frames (WebP and GIF; an
    /// AVIF output is a still).
    public var writesAnimations: Bool { self == .webp || self == .gif }
}
