import Foundation

/// What one proxy URL asks for: the size and how to reach it, which part to keep, and
/// the output's format and quality. Parsed from imgproxy-style options (see
/// `ProxyURL`); two URLs that ask for the same thing have equal options, which is how
/// the proxy finds a request it has already answered or is answering.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image meets the box of ``width`` x ``height``. Images are never enlarged.
    public enum ResizeMode: String, Sendable, Hashable, CaseIterable {
        /// The whole image, aspect ratio kept, as large as fits in the box.
        case fit
        /// The box's aspect ratio: as large as covers the box, then cut to it, keeping
        /// the part ``Gravity`` names.
        case fill
        /// Exactly the box, each side scaled on its own (the aspect ratio is not kept).
        case force
    }

    /// Which part of the image a ``ResizeMode/fill`` keeps.
    public enum Gravity: String, Sendable, Hashable, CaseIterable {
        /// The centre (`ce`, the default).
        case center = "ce"
        /// The top edge (`no`).
        case north = "no"
        /// The bottom edge (`so`).
        case south = "so"
        /// The right edge (`ea`).
        case east = "ea"
        /// The left edge (`we`).
        case west = "we"
        /// The busiest part (`sm`): the window with the most edge energy (the sum of
        /// luminance differences between neighbours) along the side that is cut.
        case smart = "sm"
    }

    public var resizeMode: ResizeMode = .fit
    /// The box's width; 0 takes it from the height and the image's aspect ratio (and
    /// with a height of 0 too, the image keeps its size).
    public var width = 0
    /// The box's height; 0 as for ``width``.
    public var height = 0
    public var gravity: Gravity = .center
    /// 1 to 100; `nil` uses the configured default of the output format.
    public var quality: Int?
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

    /// The format an option or extension names: `jpeg`, `jpg`, `png`, `webp`.
    public init?(name: String) {
        switch name.lowercased() {
        case "jpeg", "jpg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The `Content-Type` of a response in this format.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }
}
