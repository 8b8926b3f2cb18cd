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

extension TIFFReader {
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
