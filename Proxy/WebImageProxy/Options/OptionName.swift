/// The processing options by what they do, each with every spelling imgproxy accepts for
/// it. A request's options are looked up by name in one table, not compared against
/// every spelling in turn; the short spellings a URL mostly uses by their bytes packed
/// into an integer, found by a multiply and a shift, with no string made or hashed.
enum OptionName: Sendable {
    case resize, size, width, height, minWidth, minHeight, resizingType, zoom, dpr, enlarge, extend, extendAspectRatio
    case gravity, crop, quality, maxBytes, blur, sharpen, pixelate, trim, background, padding, cacheBuster, filename
    case returnAttachment, skipProcessing, raw, keepCopyright, enforceThumbnail, autoRotate, rotate, flip
    case maxSourceResolution, maxSourceFileSize, maxAnimationFrames, maxResultDimension, formatQuality, format, expires
    case stripMetadata, stripColorProfile, preset

    /// The option `name` spells, or `nil`.
    static func named(_ name: PathText) -> OptionName? {
        if let key = packed(name.bytes) { return byPackedName.value(for: key) }
        return byName[name.string]
    }

    /// Up to 8 bytes of a name in one integer (the first in the lowest byte), or `nil`
    /// for a longer name; no spelling holds a zero byte, so lengths cannot collide.
    private static func packed<Bytes: Sequence<UInt8>>(_ name: Bytes) -> UInt64? {
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for byte in name {
            guard shift < 64, byte != 0 else { return nil }
            key |= UInt64(byte) << shift
            shift += 8
        }
        return key
    }

    /// The spellings of at most 8 bytes, by ``packed(_:)``.
    private static let byPackedName: PackedNameTable = {
        var table = PackedNameTable()
        for (name, option) in byName { if let key = packed(name.utf8) { table.insert(option, for: key) } }
        return table
    }()

    /// An open-addressing table from packed names to options: a few dozen keys in 256
    /// slots, placed by a multiplicative hash and found within a probe or two.
    private struct PackedNameTable {
        private var keys = [UInt64](repeating: 0, count: 256)
        private var options = [OptionName?](repeating: nil, count: 256)

        private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56) }

        mutating func insert(_ option: OptionName, for key: UInt64) {
            var slot = Self.slot(key)
            while options[slot] != nil, keys[slot] != key { slot = (slot + 1) & 255 }
            keys[slot] = key
            options[slot] = option
        }

        /// The option under `key`; an empty slot ends the probe, and the table is never
        /// full, so every probe ends.
        func value(for key: UInt64) -> OptionName? {
            var slot = Self.slot(key)
            while let option = options[slot] {
                if keys[slot] == key { return option }
                slot = (slot + 1) & 255
            }
            return nil
        }
    }

    /// Every spelling, short and long, to the option it names.
    private static let byName: [String: OptionName] = {
        let spellings: [(OptionName, [String])] = [
            (.resize, ["rs", "resize"]), (.size, ["s", "size"]), (.width, ["w", "width"]), (.height, ["h", "height"]),
            (.minWidth, ["mw", "min-width"]), (.minHeight, ["mh", "min-height"]), (.resizingType, ["rt", "resizing_type"]),
            (.zoom, ["z", "zoom"]), (.dpr, ["dpr"]), (.enlarge, ["el", "enlarge"]), (.extend, ["ex", "extend"]),
            (.extendAspectRatio, ["exar", "extend_ar", "extend_aspect_ratio"]), (.gravity, ["g", "gravity"]),
            (.crop, ["c", "crop"]), (.quality, ["q", "quality"]), (.maxBytes, ["mb", "max_bytes"]), (.blur, ["bl", "blur"]),
            (.sharpen, ["sh", "sharpen"]), (.pixelate, ["pix", "pixelate"]), (.trim, ["t", "trim"]),
            (.background, ["bg", "background"]), (.padding, ["pd", "padding"]), (.cacheBuster, ["cb", "cachebuster"]),
            (.filename, ["fn", "filename"]), (.returnAttachment, ["att", "return_attachment"]),
            (.skipProcessing, ["skp", "skip_processing"]), (.raw, ["raw"]), (.keepCopyright, ["kcr", "keep_copyright"]),
            (.enforceThumbnail, ["eth", "enforce_thumbnail"]), (.autoRotate, ["ar", "auto_rotate"]), (.rotate, ["rot", "rotate"]),
            (.flip, ["fl", "flip"]), (.maxSourceResolution, ["msr", "max_src_resolution"]),
            (.maxSourceFileSize, ["msfs", "max_src_file_size"]), (.maxAnimationFrames, ["maf", "max_animation_frames"]),
            (.maxResultDimension, ["mrd", "max_result_dimension"]), (.formatQuality, ["fq", "format_quality"]),
            (.format, ["f", "format", "ext"]), (.expires, ["exp", "expires"]), (.stripMetadata, ["sm", "strip_metadata"]),
            (.stripColorProfile, ["scp", "strip_color_profile"]), (.preset, ["pr", "preset"]),
        ]
        var table: [String: OptionName] = [:]
        for (option, names) in spellings { for name in names { table[name] = option } }
        return table
    }()
}
