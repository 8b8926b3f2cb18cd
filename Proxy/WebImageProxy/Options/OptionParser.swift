import Foundation

/// Reads imgproxy-style option segments (`name:arg:arg`) into ``ProcessingOptions``.
///
/// | option | meaning |
/// |---|---|
/// | `rs:{fit\|fill\|force}:{w}:{h}` (`resize`) | mode and box; a trailing argument may be left out |
/// | `s:{w}:{h}` (`size`), `w:{w}` (`width`), `h:{h}` (`height`) | the box alone |
/// | `rt:{fit\|fill\|force}` (`resizing_type`) | the mode alone |
/// | `g:{ce\|no\|so\|ea\|we\|sm}` (`gravity`) | the part a fill keeps |
/// | `q:{1-100}` (`quality`) | the output's quality |
/// | `f:{jpeg\|png\|webp}` (`format`, `ext`) | the output's format |
/// | `exp:{unix seconds}` (`expires`) | a signed URL's end |
/// | `pr:{name}[:{name}...]` (`preset`) | the presets' options, in place |
/// | `sm:1` (`strip_metadata`) | accepted: outputs never carry metadata (`sm:0` is refused) |
/// | `scp:{1\|0}` (`strip_color_profile`) | 1: convert to sRGB and write no profile; 0: keep the source's pixels and profile |
///
/// Anything else is refused with a 400 naming it: a typo must not silently give
/// another image than the one asked for.
enum OptionParser {
    /// Presets may name presets; this deep, they are taken to loop.
    static let maximumPresetDepth = 8

    static func apply(
        _ segment: String, to options: inout ProcessingOptions, presets: [String: ProxyPreset], depth: Int
    ) throws(ProxyError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let arguments = Array(parts.dropFirst())
        func bad(_ why: String) -> ProxyError { ProxyError(.badOptions, "option \"\(segment)\": \(why)") }
        func dimension(_ text: String) throws(ProxyError) -> Int {
            guard let value = Int(text), value >= 0, value <= 16_384 else { throw bad("\"\(text)\" is not a size from 0 to 16384") }
            return value
        }
        func mode(_ text: String) throws(ProxyError) -> ProcessingOptions.ResizeMode {
            guard let mode = ProcessingOptions.ResizeMode(rawValue: text) else { throw bad("the resizing type is fit, fill or force") }
            return mode
        }
        func arity(_ range: ClosedRange<Int>) throws(ProxyError) {
            guard range.contains(arguments.count) else { throw bad("takes \(range.lowerBound) to \(range.upperBound) arguments") }
        }
        switch name {
        case "rs", "resize":
            try arity(1...3)
            options.resizeMode = try mode(arguments[0])
            if arguments.count > 1, !arguments[1].isEmpty { options.width = try dimension(arguments[1]) }
            if arguments.count > 2, !arguments[2].isEmpty { options.height = try dimension(arguments[2]) }
        case "s", "size":
            try arity(1...2)
            if !arguments[0].isEmpty { options.width = try dimension(arguments[0]) }
            if arguments.count > 1, !arguments[1].isEmpty { options.height = try dimension(arguments[1]) }
        case "w", "width":
            try arity(1...1)
            options.width = try dimension(arguments[0])
        case "h", "height":
            try arity(1...1)
            options.height = try dimension(arguments[0])
        case "rt", "resizing_type":
            try arity(1...1)
            options.resizeMode = try mode(arguments[0])
        case "g", "gravity":
            try arity(1...1)
            guard let gravity = ProcessingOptions.Gravity(rawValue: arguments[0]) else {
                throw bad("the gravity is ce, no, so, ea, we or sm")
            }
            options.gravity = gravity
        case "q", "quality":
            try arity(1...1)
            guard let quality = Int(arguments[0]), (1...100).contains(quality) else { throw bad("the quality is 1 to 100") }
            options.quality = quality
        case "f", "format", "ext":
            try arity(1...1)
            guard let format = OutputFormat(name: arguments[0]) else { throw bad("the format is jpeg, png or webp") }
            options.format = format
        case "exp", "expires":
            try arity(1...1)
            guard let seconds = Int(arguments[0]), seconds > 0 else { throw bad("the expiry is seconds since 1970") }
            options.expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        case "sm", "strip_metadata":
            try arity(1...1)
            guard ["1", "t", "true"].contains(arguments[0]) else {
                throw bad("metadata is always stripped: the proxy's encoders write none")
            }
        case "scp", "strip_color_profile":
            try arity(1...1)
            switch arguments[0] {
            case "1", "t", "true": options.keepsColorProfile = false
            case "0", "f", "false": options.keepsColorProfile = true
            default: throw bad("strip_color_profile is 1 or 0")
            }
        case "pr", "preset":
            try arity(1...Int.max)
            for presetName in arguments { try expand(presetName, into: &options, presets: presets, depth: depth) }
        default:
            throw bad("unknown option \"\(name)\"")
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
