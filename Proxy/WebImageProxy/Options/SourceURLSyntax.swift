/// A check of a source URL's scheme and host by its text, for the common case, so that
/// the `URL` made from it need not be asked: its `scheme` and `host` accessors cost more
/// than the rest of a request's parse.
enum SourceURLSyntax {
    /// Whether `text` plainly names an `http` or `https` scheme (any case) and a host:
    /// `scheme://` then a registered name of letters, digits, `.` and `-` starting with a
    /// letter or digit, then at most a `:` and port digits, ended by `/`, `?`, `#` or the
    /// end. Such a URL, once `URL(string:)` accepts it, has both. `false` says only that
    /// the text is not that plain (user info, an IP literal, escapes): `URL` decides then.
    static func hasSchemeAndHost(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { hasSchemeAndHost(PathText($0)) } ?? false
    }

    static func hasSchemeAndHost(_ text: PathText) -> Bool {
        let authorityStart: Int
        if text.count >= 7, startsWith(text, "http://") {
            authorityStart = 7
        } else if text.count >= 8, startsWith(text, "https://") {
            authorityStart = 8
        } else {
            return false
        }
        var offset = authorityStart
        var inPort = false
        while offset < text.count {
            let byte = text[offset]
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return offset > authorityStart && text[offset - 1] != UInt8(ascii: ":")
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                guard !inPort else { return false }
            case UInt8(ascii: "."), UInt8(ascii: "-"):
                guard !inPort, offset > authorityStart else { return false }
            case UInt8(ascii: ":"):
                guard !inPort, offset > authorityStart else { return false }
                inPort = true
            default:
                return false
            }
            offset += 1
        }
        return offset > authorityStart && text[offset - 1] != UInt8(ascii: ":")
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII), in any case.
    private static func startsWith(_ text: PathText, _ prefix: StaticString) -> Bool {
        let prefixBytes = prefix.utf8Start
        for offset in 0..<prefix.utf8CodeUnitCount {
            let byte = text[offset]
            // ASCII letters differ from their capitals in bit 5 alone.
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            guard folded == prefixBytes[offset] else { return false }
        }
        return true
    }
}
