import Crypto
import Foundation
import WebImageCore

/// The name of one processed result, the same wherever and whenever it is made: in every
/// process of a fleet, and after a restart.
///
/// It is the SHA-256 of a canonical text (``canonical``) made of:
/// - the rendering version (``renderingVersion``), raised whenever the renderer's output
///   for the same request changes, so that results of an older renderer are never served;
/// - the source's cache key (the sources' manager's `cacheKeyFilter` applied to the URL);
/// - every option that changes the output's bytes, in one fixed order and spelling, after
///   the URL was parsed: `rs:fill:300:200` and `resize:fill:300:200`, `w:300/h:200` and
///   `s:300:200`, a preset and the options it names all give the same text; a quality is
///   written as the quality each output format would get (`q:80` and no `q` when the
///   proxy's default is 80 meet), and the colour-profile choice as the one taken;
/// - how the format is chosen: the format the URL names, the preferred format the
///   client's `Accept` took, and the proxy's rules that choose between them and the
///   source's format;
/// - the proxy's settings that change bytes: the default quality per format and AVIF's
///   encoder speed.
///
/// Left out, because they change no byte of the output: `cb` (cache buster), `exp`
/// (expiry), `fn` (file name) and `att` (attachment) — those two shape only the
/// `Content-Disposition`, which is made for each request. The server's own limits are
/// left out too: they decide whether a request is rendered, not what is rendered (a URL's
/// own `msr`, `msfs`, `maf` and `mrd` are in, as part of what it asks).
struct VariantKey: Hashable, Sendable {
    /// Raised with every change to what the renderer writes for the same request.
    static let renderingVersion = 1

    /// The source's cache key.
    let source: String
    /// The canonical text the key is the hash of.
    let canonical: String
    /// `variant/` and the canonical text's SHA-256 in hex: the key of the stored result on
    /// disk and in the shared tier.
    let cacheKey: CacheKey
    /// The first 16 bytes of the canonical text's SHA-256.
    let digest: Data

    init(source: String, canonical: String) {
        self.source = source
        self.canonical = canonical
        let hash = Data(SHA256.hash(data: Data(canonical.utf8)))
        digest = hash.prefix(16)
        cacheKey = CacheKey("variant/" + hash.hexadecimal)
    }

    /// The key of `output` (its options already stripped of the format and expiry, as
    /// ``OutputKey`` holds them) for a source whose cache key is `source`.
    init(source: String, output: OutputKey, configuration: ImageProxy.Configuration) {
        self.init(source: source, canonical: Self.canonical(source: source, output: output, configuration: configuration))
    }

    static func canonical(source: String, output: OutputKey, configuration: ImageProxy.Configuration) -> String {
        let options = output.options
        var fields: [String] = ["v\(renderingVersion)", "src=\(source)"]
        fields.append(
            "rs=\(options.resizeMode.rawValue):\(options.width):\(options.height):\(options.minWidth):\(options.minHeight)")
        fields.append("z=\(number(options.zoomWidth)):\(number(options.zoomHeight))")
        fields.append("dpr=\(number(options.dpr))")
        fields.append("el=\(flag(options.enlarge))")
        fields.append("ex=\(options.extend.map(gravity) ?? "-")")
        fields.append("exar=\(options.extendAspectRatio.map(gravity) ?? "-")")
        fields.append("g=\(gravity(options.gravity))")
        fields.append(
            "c=\(options.crop.map { "\(number($0.width)):\(number($0.height)):\($0.gravity.map(gravity) ?? "-")" } ?? "-")")
        fields.append("bg=\(options.background.map { "\($0.red),\($0.green),\($0.blue)" } ?? "-")")
        fields.append("pd=\(options.padding.map { "\($0.top):\($0.right):\($0.bottom):\($0.left)" } ?? "-")")
        fields.append("bl=\(number(options.blur))")
        fields.append("sh=\(number(options.sharpen))")
        fields.append("pix=\(max(1, options.pixelate))")
        fields.append("ar=\(flag(options.autoRotate))")
        fields.append("rot=\(options.rotation):\(flag(options.flipHorizontal)):\(flag(options.flipVertical))")
        fields.append("skp=\(options.skipsProcessing.sorted().joined(separator: ","))")
        fields.append("raw=\(flag(options.raw))")
        let limits = options.limits
        fields.append(
            "lim=\(optional(limits.maxSourceResolution)):\(optional(limits.maxSourceBytes))"
                + ":\(optional(limits.maxResultDimension))")
        // How many frames an animation keeps: the server's number, lowered by the URL's.
        fields.append("maf=\(configuration.limits.narrowed(by: limits).maxAnimationFrames)")
        fields.append(
            "t=\(options.trim.map { "\(number($0.threshold)):\($0.color.map { "\($0.red),\($0.green),\($0.blue)" } ?? "-"):\(flag($0.equalHorizontal)):\(flag($0.equalVertical))" } ?? "-")"
        )
        fields.append("mb=\(optional(options.maxBytes))")
        // The quality each format would be written at: the URL's, else the configured one.
        let qualities = OutputFormat.allCases.map { format in
            let quality = options.quality ?? options.formatQuality[format] ?? configuration.quality.default(for: format)
            return "\(format.rawValue):\(optional(quality))"
        }
        fields.append("q=\(qualities.joined(separator: ","))")
        fields.append("avifspeed=\(configuration.quality.avifSpeed)")
        fields.append("scp=\(flag(options.keepsColorProfile ?? configuration.keepsColorProfile))")
        fields.append(
            "fmt=\(output.named?.rawValue ?? "-"):\(output.negotiated?.rawValue ?? "-")"
                + ":\(flag(configuration.prefersWebP || configuration.prefersAVIF)):\(flag(configuration.enforcesPreferredFormats))")
        return fields.joined(separator: "|")
    }

    /// The options of ``ProcessingOptions`` the key does not read: those it leaves out
    /// (see the type's summary), and `format` and `expires`, which ``OutputKey`` takes out
    /// of the options (the format the URL names is in the key as ``OutputKey/named``).
    /// Every other stored property is in it.
    static let excludedOptions: Set<String> = ["cacheBuster", "filename", "returnsAttachment", "expires", "format"]

    /// The options written into the canonical text, by their property names.
    static let includedOptions: Set<String> = [
        "resizeMode", "width", "height", "minWidth", "minHeight", "zoomWidth", "zoomHeight", "dpr", "enlarge", "extend",
        "extendAspectRatio", "gravity", "crop", "background", "padding", "blur", "sharpen", "pixelate", "autoRotate",
        "rotation", "flipHorizontal", "flipVertical", "skipsProcessing", "raw", "limits", "quality", "maxBytes",
        "formatQuality", "keepsColorProfile", "trim",
    ]

    private static func gravity(_ gravity: ProcessingOptions.Gravity) -> String {
        "\(gravity.kind.rawValue):\(number(gravity.x)):\(number(gravity.y))"
    }

    /// A number in one spelling: `2` for 2.0, `0.5`, never an exponent for the values
    /// options take.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    private static func optional(_ value: Int?) -> String { value.map(String.init) ?? "-" }
}
