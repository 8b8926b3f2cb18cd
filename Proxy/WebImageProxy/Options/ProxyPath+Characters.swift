import Foundation

extension PathText {
    /// Whether a `/`, `:` or `@` touches a non-ASCII byte. Only then can it be part of a
    /// larger `Character` (a combining mark after it, a prepended one before it), where
    /// a path's separators are found by `String`'s character rules, not by its bytes.
    var joinsSeparatorToNonASCII: Bool {
        guard containsNonASCII else { return false }
        var previous: UInt8 = 0
        var previousIsSeparator = false
        for byte in bytes {
            let isSeparator = byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
            if (isSeparator && previous >= 0x80) || (previousIsSeparator && byte >= 0x80) { return true }
            previous = byte
            previousIsSeparator = isSeparator
        }
        return false
    }

    /// Whether any byte is above 0x7F, read eight bytes at a time: most paths are ASCII,
    /// and this keeps the check above from costing them a byte-by-byte pass.
    private var containsNonASCII: Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            high |= UInt64(raw[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 != 0
    }
}

extension ProxyPath.Parsed {
    /// A path read by characters: the signature ends at the first `/` that is a character
    /// of its own, a segment holds an option when it has a `:` character, and the
    /// extension follows the last `@` character. Used only for a path where a separator
    /// touches a non-ASCII byte, the one case where that differs from its bytes.
    init(characters path: String) throws(ProxyError) {
        guard path.hasPrefix("/") else { throw ProxyError(.badOptions, "the path must start with /") }
        let afterSlash = path.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: "/"), signatureEnd != afterSlash.startIndex else {
            throw ProxyError(.badOptions, "the path is /{signature}/{options}/plain/{source URL}")
        }
        signature = String(afterSlash[..<signatureEnd])
        let signedPath = String(afterSlash[signatureEnd...])
        self.signedPath = signedPath
        let segments = signedPath.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            Substring($0)
        }
        func offset(_ index: String.Index) -> Int { signedPath.utf8.distance(from: signedPath.utf8.startIndex, to: index) }
        if let plain = segments.firstIndex(of: "plain"), plain < segments.count - 1 {
            optionsEnd = offset(segments[plain].startIndex) - 1
            // The rest of the path as sent, its slashes included.
            source = try Self.plainSource(characters: signedPath[segments[plain + 1].startIndex...])
        } else {
            let sourceStart = segments.firstIndex { !$0.contains(":") && !$0.isEmpty } ?? segments.endIndex
            guard sourceStart < segments.endIndex else {
                throw ProxyError(.badOptions, "no source URL after the options (plain/{URL} or its base64)")
            }
            optionsEnd = offset(segments[sourceStart].startIndex) - 1
            source = try ProxyPath.base64Source(segments[sourceStart...].joined())
        }
    }

    /// A percent-encoded source and the extension after its last `@` character.
    private static func plainSource(characters encoded: Substring) throws(ProxyError) -> (url: String, format: String?) {
        var source = encoded
        var format: String?
        if let at = source.lastIndex(of: "@") {
            format = String(source[source.index(after: at)...])
            source = source[..<at]
        }
        guard let url = source.withUTF8({ PathText($0).percentDecoded }), !url.isEmpty else {
            throw ProxyError(.badOptions, "the source URL is empty or badly percent-encoded")
        }
        return (url, format)
    }
}
