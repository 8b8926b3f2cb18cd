import Foundation

/// Reads one option's arguments as imgproxy reads them, refusing what it cannot read
/// with a 400 that names the option.
struct ArgumentReader {
    let segment: PathText

    func bad(_ why: String) -> ProxyError { ProxyError(.badOptions, "option \"\(segment)\": \(why)") }

    func dimension(_ text: PathText) throws(ProxyError) -> Int {
        guard let value = DecimalText.integer(text), value >= 0, value <= 16_384 else {
            throw bad("\"\(text)\" is not a size from 0 to 16384")
        }
        return value
    }

    func mode(_ text: PathText) throws(ProxyError) -> ProcessingOptions.ResizeMode {
        guard let mode = ProcessingOptions.ResizeMode(rawValue: text.string) else {
            throw bad("the resizing type is fit, fill, fill-down, force or auto")
        }
        return mode
    }

    /// `{name}[:{encoded}]`: the name as given, or URL-safe base64 of it.
    func filename(_ arguments: OptionArguments) throws(ProxyError) -> String? {
        guard !arguments[0].isEmpty else { return nil }
        guard arguments.count > 1, !arguments[1].isEmpty, try bool(arguments[1]) else { return arguments[0].string }
        guard let data = Data(base64URLEncoded: arguments[0].string), let name = String(data: data, encoding: .utf8) else {
            throw bad("the file name is not URL-safe base64")
        }
        return name
    }

    /// `{r}:{g}:{b}` (0 to 255 each), `{rrggbb}` in hex, or empty for none.
    func color(_ arguments: OptionArguments) throws(ProxyError) -> ProcessingOptions.Color? {
        if arguments.count == 3 {
            var channels: [UInt8] = []
            for argument in arguments {
                guard let value = UInt8(argument.string) else { throw bad("\"\(argument)\" is not a channel from 0 to 255") }
                channels.append(value)
            }
            return ProcessingOptions.Color(red: channels[0], green: channels[1], blue: channels[2])
        }
        guard arguments.count == 1 else { throw bad("the colour is r:g:b or hex") }
        return try hexColor(arguments[0])
    }

    /// `{rrggbb}`, or empty for none.
    func hexColor(_ text: PathText) throws(ProxyError) -> ProcessingOptions.Color? {
        if text.isEmpty { return nil }
        guard text.count == 6, let value = UInt32(text.string, radix: 16) else { throw bad("\"\(text)\" is not a hex colour") }
        return ProcessingOptions.Color(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `{threshold}[:{hex}[:{equal_hor}[:{equal_ver}]]]`; an empty threshold is no trim.
    func trim(_ arguments: OptionArguments) throws(ProxyError) -> ProcessingOptions.Trim? {
        guard !arguments[0].isEmpty else { return nil }
        guard let threshold = DecimalText.number(arguments[0]), threshold >= 0, threshold <= 255 else {
            throw bad("\"\(arguments[0])\" is not a threshold from 0 to 255")
        }
        func flag(_ index: Int) throws(ProxyError) -> Bool {
            index < arguments.count && !arguments[index].isEmpty ? try bool(arguments[index]) : false
        }
        let color = arguments.count > 1 ? try hexColor(arguments[1]) : nil
        return ProcessingOptions.Trim(threshold: threshold, color: color, equalHorizontal: try flag(2), equalVertical: try flag(3))
    }

    /// `{top}[:{right}[:{bottom}[:{left}]]]`: a right left out is the top, a bottom the
    /// top, a left the right (CSS's order); `nil` when all are 0.
    func padding(_ arguments: OptionArguments) throws(ProxyError) -> ProcessingOptions.Padding? {
        func side(_ index: Int) throws(ProxyError) -> Int? {
            guard index < arguments.count, !arguments[index].isEmpty else { return nil }
            return try dimension(arguments[index])
        }
        let top = try side(0) ?? 0
        let right = try side(1) ?? top
        let bottom = try side(2) ?? top
        let left = try side(3) ?? right
        guard top + right + bottom + left > 0 else { return nil }
        return ProcessingOptions.Padding(top: top, right: right, bottom: bottom, left: left)
    }

    /// Source format names, as `skp` takes them (`jpg` is `jpeg`).
    func sourceFormats(_ arguments: OptionArguments) throws(ProxyError) -> Set<String> {
        var formats: Set<String> = []
        for argument in arguments {
            let lowercased = argument.string.lowercased()
            let name = lowercased == "jpg" ? "jpeg" : lowercased
            guard ["jpeg", "png", "gif", "webp", "avif"].contains(name) else {
                throw bad("\"\(argument)\" is not a source format (jpeg, png, gif, webp, avif)")
            }
            formats.insert(name)
        }
        return formats
    }

    /// A filter's standard deviation: 0 (none) to 100 pixels, which bounds a filter's
    /// work per pixel (the kernel spans about 3.6 sigma).
    func sigma(_ text: PathText) throws(ProxyError) -> Double {
        guard let value = DecimalText.number(text), value >= 0, value <= 100 else { throw bad("\"\(text)\" is not a sigma from 0 to 100") }
        return value
    }

    /// A count or size above 0.
    func positive(_ text: PathText) throws(ProxyError) -> Int {
        guard let value = DecimalText.integer(text), value > 0 else { throw bad("\"\(text)\" is not a number above 0") }
        return value
    }

    /// A multiplier: a number above 0.
    func factor(_ text: PathText) throws(ProxyError) -> Double {
        guard let value = DecimalText.number(text), value > 0, value.isFinite, value <= 1_000 else {
            throw bad("\"\(text)\" is not a number above 0")
        }
        return value
    }

    /// A crop side: 0 (none), a fraction below 1, or pixels.
    func cropSide(_ text: PathText) throws(ProxyError) -> Double {
        guard let value = DecimalText.number(text), value >= 0, value <= 16_384 else {
            throw bad("\"\(text)\" is not a crop size from 0 to 16384")
        }
        return value
    }

    /// imgproxy's booleans (Go's `strconv.ParseBool`); anything else is refused, where
    /// imgproxy would read it as false.
    func bool(_ text: PathText) throws(ProxyError) -> Bool {
        if text.is("1") || text.is("t") || text.is("T") || text.is("true") || text.is("TRUE") || text.is("True") { return true }
        if text.is("0") || text.is("f") || text.is("F") || text.is("false") || text.is("FALSE") || text.is("False") { return false }
        throw bad("\"\(text)\" is not a boolean (1, t, true, 0, f, false)")
    }

    /// `{type}[:{x}:{y}]`: smart takes no offsets, a focus point exactly two fractions.
    func gravity(_ arguments: OptionArguments, allowsSmart: Bool) throws(ProxyError) -> ProcessingOptions.Gravity {
        guard let kind = ProcessingOptions.Gravity.Kind(rawValue: arguments[0].string), allowsSmart || kind != .smart else {
            throw bad("the gravity is ce, no, so, ea, we, noea, nowe, soea, sowe, \(allowsSmart ? "sm or fp" : "or fp")")
        }
        var gravity = ProcessingOptions.Gravity(kind)
        switch kind {
        case .smart:
            guard arguments.count == 1 else { throw bad("smart gravity takes no offsets") }
        case .focusPoint:
            guard arguments.count == 3 else { throw bad("a focus point takes x and y, each 0 to 1") }
            fallthrough
        default:
            guard arguments.count <= 3 else { throw bad("the gravity takes a type and two offsets") }
            if arguments.count > 1, !arguments[1].isEmpty { gravity.x = try offset(arguments[1], of: kind) }
            if arguments.count > 2, !arguments[2].isEmpty { gravity.y = try offset(arguments[2], of: kind) }
        }
        return gravity
    }

    /// `{enabled}[:{gravity}...]`: the gravity of a canvas (no smart one); `nil` when off.
    func canvas(_ arguments: OptionArguments, current: ProcessingOptions.Gravity?) throws(ProxyError) -> ProcessingOptions.Gravity? {
        guard try bool(arguments[0]) else { return nil }
        guard arguments.count > 1 else { return current ?? .center }
        return try gravity(arguments.dropping(1), allowsSmart: false)
    }

    /// `{w}:{h}:{enlarge}:{extend}...`, the arguments of `size` (and of `resize` after
    /// its type); an empty argument leaves its option as it was.
    func size(_ arguments: OptionArguments, into options: inout ProcessingOptions) throws(ProxyError) {
        if arguments.count > 0, !arguments[0].isEmpty { options.width = try dimension(arguments[0]) }
        if arguments.count > 1, !arguments[1].isEmpty { options.height = try dimension(arguments[1]) }
        if arguments.count > 2, !arguments[2].isEmpty { options.enlarge = try bool(arguments[2]) }
        if arguments.count > 3, !arguments[3].isEmpty {
            options.extend = try canvas(arguments.dropping(3), current: options.extend)
        }
    }

    private func offset(_ text: PathText, of kind: ProcessingOptions.Gravity.Kind) throws(ProxyError) -> Double {
        guard let value = DecimalText.number(text), value.isFinite, kind != .focusPoint || (0...1).contains(value) else {
            throw bad("\"\(text)\" is not an offset\(kind == .focusPoint ? " from 0 to 1" : "")")
        }
        return value
    }
}
