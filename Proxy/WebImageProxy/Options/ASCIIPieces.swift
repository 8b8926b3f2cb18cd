/// Splitting and decoding a request path byte by byte: a path and its options are ASCII
/// by construction, and a `Character` split pays for grapheme breaking on every byte,
/// which was most of a URL's parse.
extension StringProtocol where SubSequence == Substring {
    /// The pieces between each `separator` (an ASCII byte), empty ones kept: what
    /// `split(separator:omittingEmptySubsequences: false)` gives.
    func pieces(separatedBy separator: UInt8) -> [Substring] {
        var pieces: [Substring] = []
        // Counted first, so the array is allocated once.
        var separators = 0
        for byte in utf8 where byte == separator { separators += 1 }
        pieces.reserveCapacity(separators + 1)
        var start = startIndex
        var index = startIndex
        while index != endIndex {
            if utf8[index] == separator {
                pieces.append(self[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        pieces.append(self[start..<endIndex])
        return pieces
    }

    /// The text with each `%XX` replaced by its byte; `nil` when an escape is not two hex
    /// digits or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    var percentDecoded: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(let digit) where (0x30...0x39).contains(digit): digit - 0x30
            case .some(let letter) where (0x41...0x46).contains(letter): letter - 0x41 + 10
            case .some(let letter) where (0x61...0x66).contains(letter): letter - 0x61 + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            guard byte == 0x25 else {
                bytes.append(byte)
                continue
            }
            guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
