import Foundation

/// Reads tags out of a TIFF block (EXIF data: a TIFF header and IFD0), every offset and
/// count checked against the block.
struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let littleEndian: Bool
    /// Text longer than this is not a camera field: skipped.
    static let maximumTextLength = 256

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let a = Int(bytes[offset])
        let b = Int(bytes[offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ offset: Int) -> Int? {
        guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
        return littleEndian ? second << 16 | first : first << 16 | second
    }

    /// One IFD's entries: tag, type, count, and where the value is (inline when it fits
    /// in four bytes).
    struct Entry {
        let type: Int
        let count: Int
        let valueOffset: Int
    }

    func entries(at ifd: Int) -> [Int: Entry] {
        guard let count = u16(ifd) else { return [:] }
        var entries: [Int: Entry] = [:]
        // An IFD cannot hold more entries than the block has room for.
        for index in 0..<min(count, (bytes.count - ifd) / 12) {
            let at = ifd + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4) else { break }
            let size = Self.valueSize(ofType: type)
            guard size > 0, count > 0, count <= bytes.count else { continue }
            let inline = size * count <= 4
            guard let offset = inline ? at + 8 : u32(at + 8), offset + size * count <= bytes.count else { continue }
            entries[tag] = Entry(type: type, count: count, valueOffset: offset)
        }
        return entries
    }

    /// The bytes one value of a TIFF `type` takes: BYTE, ASCII, UNDEFINED 1; SHORT 2;
    /// LONG, SLONG 4; RATIONAL, SRATIONAL 8; 0 for a type the fields never read.
    static func valueSize(ofType type: Int) -> Int {
        switch type {
        case 1, 2, 7: 1
        case 3: 2
        case 4, 9: 4
        case 5, 10: 8
        default: 0
        }
    }

    func text(_ entry: Entry?) -> String? {
        guard let entry, entry.type == 2, entry.count <= Self.maximumTextLength else { return nil }
        var characters = Array(UnsafeRawBufferPointer(rebasing: bytes[entry.valueOffset..<(entry.valueOffset + entry.count)]))
        while characters.last == 0 { characters.removeLast() }
        guard let text = String(validating: characters, as: UTF8.self)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        return text
    }

    func rational(_ entry: Entry?) -> (numerator: Int, denominator: Int)? {
        guard let entry, entry.type == 5, let numerator = u32(entry.valueOffset), let denominator = u32(entry.valueOffset + 4),
            denominator > 0
        else { return nil }
        return (numerator, denominator)
    }

    func integer(_ entry: Entry?) -> Int? {
        guard let entry else { return nil }
        switch entry.type {
        case 3: return u16(entry.valueOffset)
        case 4: return u32(entry.valueOffset)
        default: return nil
        }
    }
}
