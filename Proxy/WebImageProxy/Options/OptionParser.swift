import Foundation

/// Reads imgproxy's processing options (`name:arg:arg`) into ``ProcessingOptions``,
/// with imgproxy's argument order, defaults and meaning.
///
/// | option | meaning |
/// |---|---|
/// | `rs:{type}:{w}:{h}:{enlarge}:{extend}:{gravity}...` (`resize`) | type, box, enlarging, extension; any argument may be left empty |
/// | `s:{w}:{h}:{enlarge}:{extend}...` (`size`), `w:{w}` (`width`), `h:{h}` (`height`) | the box alone |
/// | `rt:{fit\|fill\|fill-down\|force\|auto}` (`resizing_type`) | the type alone |
/// | `mw:{w}` (`min-width`), `mh:{h}` (`min-height`) | the smallest result |
/// | `z:{x}[:{y}]` (`zoom`), `dpr:{ratio}` | multipliers of the box |
/// | `el:{bool}` (`enlarge`) | whether a small source grows to the box |
/// | `ex:{bool}[:{gravity}...]` (`extend`), `exar:...` (`extend_aspect_ratio`) | a canvas of the box (or its aspect ratio) |
/// | `g:{type}[:{x}:{y}]` (`gravity`), `g:fp:{x}:{y}` | where a cut sits: `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe`, `sm`, `fp` |
/// | `c:{w}[:{h}[:{gravity}...]]` (`crop`) | a cut of the source before scaling |
/// | `ar:{bool}` (`auto_rotate`), `rot:{90n}` (`rotate`), `fl:{h}:{v}` (`flip`) | the source's orientation, a clockwise turn, mirrors |
/// | `q:{1-100}` (`quality`) | the output's quality; 0 the default |
/// | `fq:{format}:{q}...` (`format_quality`) | the quality per output format, below `q` |
/// | `f:{jpeg\|png\|webp\|avif}` (`format`, `ext`) | the output's format |
/// | `exp:{unix seconds}` (`expires`) | a signed URL's end |
/// | `mb:{bytes}` (`max_bytes`) | a lossy output written again at lower qualities until it fits (down to 10) |
/// | `bl:{sigma}` (`blur`), `sh:{sigma}` (`sharpen`), `pix:{size}` (`pixelate`) | filters of the result, before canvases; a sigma is at most 100 |
/// | `t:{threshold}[:{hex}[:{equal_hor}[:{equal_ver}]]]` (`trim`) | borders of the background's colour (the top-left pixel's unless given) cut away first; an empty threshold turns it off |
/// | `bg:{r}:{g}:{b}`, `bg:{hex}` (`background`) | the colour under transparency, canvases and padding |
/// | `pd:{top}[:{right}[:{bottom}[:{left}]]]` (`padding`) | space around the result, CSS's order |
/// | `cb:{text}` (`cachebuster`) | changes only the URL |
/// | `fn:{name}[:{base64}]` (`filename`), `att:{bool}` (`return_attachment`) | the name a browser saves it as, and whether it saves rather than shows it |
/// | `skp:{format}...` (`skip_processing`), `raw:{bool}` | sources of those formats, or all, answered as they are |
/// | `kcr:0` (`keep_copyright`), `eth:0` (`enforce_thumbnail`) | accepted; `kcr:1` and `eth:1` are refused (no metadata is written, no embedded thumbnail read) |
/// | `msr:{megapixels}`, `msfs:{bytes}`, `maf:{n}`, `mrd:{side}` | this URL's own limits, below the server's |
/// | `pr:{name}[:{name}...]` (`preset`) | the presets' options, in place |
/// | `sm:1` (`strip_metadata`) | accepted: outputs never carry metadata (`sm:0` is refused) |
/// | `scp:{1\|0}` (`strip_color_profile`) | 1: convert to sRGB and write no profile; 0: keep the source's pixels and profile |
///
/// Anything else, and any argument imgproxy would read as something else (a boolean
/// that is not one, a negative size), is refused with a 400 naming it: a typo must not
/// silently give another image than the one asked for.
enum OptionParser {
    /// Presets may name presets; this deep, they are taken to loop.
    static let maximumPresetDepth = 8

    static func apply(
        _ segment: String, to options: inout ProcessingOptions, presets: [String: ProxyPreset], depth: Int
    ) throws(ProxyError) {
        try withPathText(segment) { (text) throws(ProxyError) in try apply(text, to: &options, presets: presets, depth: depth) }
    }

    static func apply(
        _ segment: PathText, to options: inout ProcessingOptions, presets: [String: ProxyPreset], depth: Int
    ) throws(ProxyError) {
        try segment.withPieces(separatedBy: UInt8(ascii: ":")) { (parts) throws(ProxyError) in
            try apply(segment, parts: parts, to: &options, presets: presets, depth: depth)
        }
    }

    /// One option, its name and arguments the `parts` of `segment` (ranges of its bytes).
    private static func apply(
        _ segment: PathText, parts: UnsafeBufferPointer<Range<Int>>, to options: inout ProcessingOptions,
        presets: [String: ProxyPreset], depth: Int
    ) throws(ProxyError) {
        let arguments = OptionArguments(segment, parts.dropFirst())
        let reader = ArgumentReader(segment: segment)
        let name = segment[parts[0]]
        guard let option = OptionName.named(name) else { throw reader.bad("unknown option \"\(name)\"") }
        func arity(_ range: ClosedRange<Int>) throws(ProxyError) {
            guard range.contains(arguments.count) else { throw reader.bad("takes \(range.lowerBound) to \(range.upperBound) arguments") }
        }
        switch option {
        case .resize:
            try arity(1...8)
            if !arguments[0].isEmpty { options.resizeMode = try reader.mode(arguments[0]) }
            try reader.size(arguments.dropping(1), into: &options)
        case .size:
            try arity(1...7)
            try reader.size(arguments, into: &options)
        case .width:
            try arity(1...1)
            options.width = try reader.dimension(arguments[0])
        case .height:
            try arity(1...1)
            options.height = try reader.dimension(arguments[0])
        case .minWidth:
            try arity(1...1)
            options.minWidth = try reader.dimension(arguments[0])
        case .minHeight:
            try arity(1...1)
            options.minHeight = try reader.dimension(arguments[0])
        case .resizingType:
            try arity(1...1)
            options.resizeMode = try reader.mode(arguments[0])
        case .zoom:
            try arity(1...2)
            options.zoomWidth = try reader.factor(arguments[0])
            options.zoomHeight = arguments.count > 1 ? try reader.factor(arguments[1]) : options.zoomWidth
        case .dpr:
            try arity(1...1)
            options.dpr = try reader.factor(arguments[0])
        case .enlarge:
            try arity(1...1)
            options.enlarge = try reader.bool(arguments[0])
        case .extend:
            try arity(1...4)
            options.extend = try reader.canvas(arguments, current: options.extend)
        case .extendAspectRatio:
            try arity(1...4)
            options.extendAspectRatio = try reader.canvas(arguments, current: options.extendAspectRatio)
        case .gravity:
            try arity(1...3)
            options.gravity = try reader.gravity(arguments, allowsSmart: true)
        case .crop:
            try arity(1...5)
            let width = try reader.cropSide(arguments[0])
            let height = arguments.count > 1 && !arguments[1].isEmpty ? try reader.cropSide(arguments[1]) : 0
            let gravity = arguments.count > 2 ? try reader.gravity(arguments.dropping(2), allowsSmart: true) : nil
            options.crop = ProcessingOptions.Crop(width: width, height: height, gravity: gravity)
        case .quality:
            try arity(1...1)
            guard let quality = DecimalText.integer(arguments[0]), (0...100).contains(quality) else {
                throw reader.bad("the quality is 0 (the default) to 100")
            }
            options.quality = quality == 0 ? nil : quality
        case .maxBytes:
            try arity(1...1)
            guard let bytes = DecimalText.integer(arguments[0]), bytes >= 0 else { throw reader.bad("the size is bytes, 0 for no limit") }
            options.maxBytes = bytes == 0 ? nil : bytes
        case .blur:
            try arity(1...1)
            options.blur = try reader.sigma(arguments[0])
        case .sharpen:
            try arity(1...1)
            options.sharpen = try reader.sigma(arguments[0])
        case .pixelate:
            try arity(1...1)
            options.pixelate = try reader.dimension(arguments[0])
        case .trim:
            try arity(1...4)
            options.trim = try reader.trim(arguments)
        case .background:
            try arity(1...3)
            options.background = try reader.color(arguments)
        case .padding:
            try arity(1...4)
            options.padding = try reader.padding(arguments)
        case .cacheBuster:
            try arity(1...1)
            options.cacheBuster = arguments[0].isEmpty ? nil : arguments[0].string
        case .filename:
            try arity(1...2)
            options.filename = try reader.filename(arguments)
        case .returnAttachment:
            try arity(1...1)
            options.returnsAttachment = try reader.bool(arguments[0])
        case .skipProcessing:
            try arity(1...Int.max)
            options.skipsProcessing = try reader.sourceFormats(arguments)
        case .raw:
            try arity(1...1)
            options.raw = try reader.bool(arguments[0])
        case .keepCopyright:
            try arity(1...1)
            guard try !reader.bool(arguments[0]) else { throw reader.bad("no metadata is kept: the proxy's encoders write none") }
        case .enforceThumbnail:
            try arity(1...1)
            guard try !reader.bool(arguments[0]) else { throw reader.bad("embedded thumbnails are not read; the image itself is used") }
        case .autoRotate:
            try arity(1...1)
            options.autoRotate = try reader.bool(arguments[0])
        case .rotate:
            try arity(1...1)
            guard let degrees = DecimalText.integer(arguments[0]), degrees % 90 == 0 else {
                throw reader.bad("the angle is a multiple of 90")
            }
            options.rotation = (degrees % 360 + 360) % 360
        case .flip:
            try arity(1...2)
            if !arguments[0].isEmpty { options.flipHorizontal = try reader.bool(arguments[0]) }
            if arguments.count > 1, !arguments[1].isEmpty { options.flipVertical = try reader.bool(arguments[1]) }
        case .maxSourceResolution:
            try arity(1...1)
            guard let megapixels = DecimalText.number(arguments[0]), megapixels > 0, megapixels <= 10_000 else {
                throw reader.bad("the resolution is megapixels above 0")
            }
            options.limits.maxSourceResolution = Int(megapixels * 1_000_000)
        case .maxSourceFileSize:
            try arity(1...1)
            options.limits.maxSourceBytes = try reader.positive(arguments[0])
        case .maxAnimationFrames:
            try arity(1...1)
            options.limits.maxAnimationFrames = try reader.positive(arguments[0])
        case .maxResultDimension:
            try arity(1...1)
            options.limits.maxResultDimension = try reader.positive(arguments[0])
        case .formatQuality:
            guard !arguments.isEmpty, arguments.count % 2 == 0 else { throw reader.bad("takes pairs of a format and a quality") }
            // Room for every pair at once, not a table grown pair by pair.
            options.formatQuality.reserveCapacity(options.formatQuality.count + arguments.count / 2)
            for pair in stride(from: 0, to: arguments.count, by: 2) {
                guard let format = outputFormat(arguments[pair]) else {
                    throw reader.bad("the format is jpeg, png, webp or avif")
                }
                guard let quality = DecimalText.integer(arguments[pair + 1]), (0...100).contains(quality) else {
                    throw reader.bad("the quality is 0 (the default) to 100")
                }
                options.formatQuality[format] = quality == 0 ? nil : quality
            }
        case .format:
            try arity(1...1)
            guard let format = outputFormat(arguments[0]) else { throw reader.bad("the format is jpeg, png, webp or avif") }
            options.format = format
        case .expires:
            try arity(1...1)
            guard let seconds = DecimalText.integer(arguments[0]), seconds > 0 else { throw reader.bad("the expiry is seconds since 1970") }
            options.expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        case .stripMetadata:
            try arity(1...1)
            guard arguments[0].is("1") || arguments[0].is("t") || arguments[0].is("true") else {
                throw reader.bad("metadata is always stripped: the proxy's encoders write none")
            }
        case .stripColorProfile:
            try arity(1...1)
            options.keepsColorProfile = try !reader.bool(arguments[0])
        case .preset:
            try arity(1...Int.max)
            for presetName in arguments { try expand(presetName.string, into: &options, presets: presets, depth: depth) }
        }
    }

    /// The format `text` names, as ``OutputFormat/init(name:)`` reads it; ASCII names are
    /// compared in place, without a lowercased copy.
    private static func outputFormat(_ text: PathText) -> OutputFormat? {
        // Packed into an integer, four bytes at most; a zero byte would alias a shorter name.
        guard text.count <= 4, !text.bytes.contains(where: { $0 == 0 || $0 >= 0x80 }) else { return OutputFormat(name: text.string) }
        var folded: UInt32 = 0
        for byte in text.bytes {
            let lowercase = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            folded = folded << 8 | UInt32(lowercase)
        }
        switch folded {
        case 0x6A70_6567, 0x6A_7067: return .jpeg  // "jpeg", "jpg"
        case 0x70_6E67: return .png
        case 0x7765_6270: return .webp
        case 0x6176_6966: return .avif
        case 0x67_6966: return .gif
        default: return nil
        }
    }

    static func expand(
        _ presetName: String, into options: inout ProcessingOptions, presets: [String: ProxyPreset], depth: Int
    ) throws(ProxyError) {
        guard depth < maximumPresetDepth else {
            throw ProxyError(.badOptions, "preset \"\(presetName)\": presets nest more than \(maximumPresetDepth) deep")
        }
        guard let preset = presets[presetName] else { throw ProxyError(.badOptions, "no preset is named \"\(presetName)\"") }
        for option in preset.options { try apply(option, to: &options, presets: presets, depth: depth + 1) }
    }
}
