import Foundation
import WebImageCore

/// The common camera fields of an EXIF block (`ImageHeader.exif`): who made the picture
/// with what, when, and how it was exposed. Location (GPS) and maker notes are never
/// read: a server that answers these to anyone asking should not give away where a
/// photo was taken.
///
/// ```swift
/// let header = try ImageDecoderRegistry.standard.header(of: data)
/// if let exif = header.exif.flatMap(ExifFields.init(tiff:)) {
///     print(exif.model ?? "unknown camera", exif.exposureTime ?? "")
/// }
/// ```
///
/// Every offset and count is checked against the block; a field whose entry is
/// malformed, of another type than the standard's, or not UTF-8 text reads as `nil`, and
/// the rest are still read. Work is bounded by the block's size (at most 64 KiB).
public struct ExifFields: Sendable, Hashable, Codable {
    /// The camera's maker (`Make`, 0x010F).
    public var make: String?
    /// The camera's model (`Model`, 0x0110).
    public var model: String?
    /// The lens (`LensModel`, 0xA434).
    public var lensModel: String?
    /// The program that wrote the file (`Software`, 0x0131).
    public var software: String?
    /// When the picture was taken, as written (`DateTimeOriginal`, 0x9003,
    /// "YYYY:MM:DD HH:MM:SS"), else when the file was changed (`DateTime`, 0x0132).
    public var dateTime: String?
    /// The photographer (`Artist`, 0x013B).
    public var artist: String?
    /// The copyright notice (`Copyright`, 0x8298).
    public var copyright: String?
    /// The exposure in seconds as a photographer writes it: "1/250", "0.3", "2"
    /// (`ExposureTime`, 0x829A).
    public var exposureTime: String?
    /// The aperture's f-number (`FNumber`, 0x829D).
    public var fNumber: Double?
    /// The sensitivity (`PhotographicSensitivity`, 0x8827).
    public var iso: Int?
    /// The focal length in millimetres (`FocalLength`, 0x920A).
    public var focalLength: Double?

    /// The fields of `tiff` (a TIFF header and IFD0, as `ImageHeader.exif` holds);
    /// `nil` when it is not a TIFF block or holds none of them.
    public init?(tiff: Data) {
        guard let fields = tiff.withUnsafeBytes({ TIFFReader($0)?.fields() }), fields != ExifFields() else { return nil }
        self = fields
    }

    init() {}
}

/// Reads tags out of a TIFF block, every access bounds-checked.
private struct TIFFReader {
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
            let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8][type] ?? 0
            guard size > 0, count > 0, count <= bytes.count else { continue }
            let inline = size * count <= 4
            guard let offset = inline ? at + 8 : u32(at + 8), offset + size * count <= bytes.count else { continue }
            entries[tag] = Entry(type: type, count: count, valueOffset: offset)
        }
        return entries
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

    func fields() -> ExifFields {
        var fields = ExifFields()
        guard let ifd0 = u32(4) else { return fields }
        let main = entries(at: ifd0)
        // The Exif IFD must lie past the header; a pointer back to IFD0 reads nothing twice.
        let exifPointer = integer(main[0x8769]).flatMap { $0 >= 8 && $0 != ifd0 ? $0 : nil }
        let exif = exifPointer.map { entries(at: $0) } ?? [:]
        fields.make = text(main[0x010F])
        fields.model = text(main[0x0110])
        fields.software = text(main[0x0131])
        fields.artist = text(main[0x013B])
        fields.copyright = text(main[0x8298])
        fields.dateTime = text(exif[0x9003]) ?? text(main[0x0132])
        fields.lensModel = text(exif[0xA434])
        fields.iso = integer(exif[0x8827])
        if let (numerator, denominator) = rational(exif[0x829A]) {
            // A fraction of a second whose inverse is whole reads as one: 10/2500 is 1/250.
            let inverse = numerator > 0 ? Double(denominator) / Double(numerator) : 0
            fields.exposureTime =
                numerator < denominator && inverse == inverse.rounded()
                ? "1/\(Int(inverse))" : Self.decimal(Double(numerator) / Double(denominator))
        }
        fields.fNumber = rational(exif[0x829D]).map { Double($0.numerator) / Double($0.denominator) }
        fields.focalLength = rational(exif[0x920A]).map { Double($0.numerator) / Double($0.denominator) }
        return fields
    }

    /// A number with at most one decimal, none when whole: "2", "0.3".
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
