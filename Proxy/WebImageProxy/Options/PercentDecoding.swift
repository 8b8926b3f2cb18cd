extension PathText {
    /// The text with each `%XX` replaced by its byte; `nil` when an escape is not two hex
    /// digits or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    var percentDecoded: String? {
        // Without an escape the text is its own decoding, and already valid UTF-8.
        guard let firstEscape = firstOffset(of: UInt8(ascii: "%")) else { return string }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { decoded -> String? in
            var written = 0
            for offset in 0..<firstEscape {
                decoded.initializeElement(at: written, to: bytes[offset])
                written += 1
            }
            var offset = firstEscape
            while offset < count {
                let byte = bytes[offset]
                offset += 1
                guard byte == UInt8(ascii: "%") else {
                    decoded.initializeElement(at: written, to: byte)
                    written += 1
                    continue
                }
                guard offset + 1 < count, let high = Self.hexDigit(bytes[offset]), let low = Self.hexDigit(bytes[offset + 1]) else {
                    return nil
                }
                decoded.initializeElement(at: written, to: high << 4 | low)
                written += 1
                offset += 2
            }
            return String(validating: UnsafeBufferPointer(rebasing: decoded[..<written]), as: UTF8.self)
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
