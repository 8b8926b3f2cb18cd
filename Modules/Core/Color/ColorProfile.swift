import Foundation

/// An ICC colour profile: the bytes a file embeds to say what its pixel values mean.
///
/// Making one reads only the 128-byte header and the tag table (a few dozen bytes), and
/// checks that the profile is whole: the declared size fits the bytes, the `acsp`
/// signature is there, every tag lies inside the profile. Whether a colour engine can
/// use the profile is known only when a transform is built from it (see
/// ``ColorConverting``).
///
/// ```swift
/// let profile = try ColorProfile(iccData: bytes)
/// print(profile.colorSpace, profile.isSRGB)
/// ```
///
/// Two profiles are equal when their bytes are; hashing reads a digest computed once,
/// so a profile is a cheap key for a cache of transforms.
public struct ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// The largest profile accepted: 4 MiB. Display profiles are a few hundred bytes to
    /// a few KiB, and the largest print (CMYK) profiles with 16-bit tables stay under
    /// 2 MiB; a bigger one is refused as ``ColorProfileError/Reason/tooLarge`` before
    /// any of it is read, so a file cannot make a decode hold or parse tens of MiB of it.
    public static let maximumByteCount = 4 << 20

    /// The profile's bytes, exactly as declared by its header's size field.
    public let data: Data
    /// The colour space of the data the profile describes (its header's data colour
    /// space field).
    public let colorSpace: ColorSpace
    /// Whether the profile is sRGB by content (see ``isSRGB``).
    public let isSRGB: Bool
    /// A 64-bit FNV-1a digest of ``data``.
    public let digest: UInt64
    /// What the profile was made from when the file stated its colour space by numbers
    /// (an AVIF's `nclx` box, a PNG's `gAMA` and `cHRM`) instead of embedding a profile,
    /// such as `"AVIF nclx: primaries 12, transfer 13"`; `nil` for an embedded profile.
    /// Not part of equality: two profiles with the same bytes are the same profile.
    public internal(set) var origin: String?

    /// Reads the header of the ICC profile in `iccData`.
    ///
    /// - Throws: ``ColorProfileError`` when the bytes are over ``maximumByteCount``,
    ///   shorter than their declared size, or not an ICC profile.
    public init(iccData: Data) throws(ColorProfileError) {
        let parsed = try ICCHeader(iccData)
        data = iccData.count == parsed.size ? iccData : Data(iccData.prefix(parsed.size))
        colorSpace = parsed.colorSpace
        digest = ColorProfile.fnv1a(data)
        isSRGB = parsed.colorSpace == .rgb && SRGBRecognition.matches(parsed)
    }

    /// The profile's size in bytes.
    public var byteCount: Int { data.count }

    public var description: String {
        let name = isSRGB ? "sRGB" : colorSpace.description
        guard let origin else { return "ICC \(name) profile, \(data.count) bytes" }
        return "ICC \(name) profile from \(origin), \(data.count) bytes"
    }

    public static func == (lhs: ColorProfile, rhs: ColorProfile) -> Bool {
        lhs.digest == rhs.digest && lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    private static func fnv1a(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return hash
        }
    }
}

extension ColorProfile {
    /// The colour space of the values a profile describes.
    public enum ColorSpace: Sendable, Hashable, CustomStringConvertible {
        /// Three channels, red, green and blue (`RGB `).
        case rgb
        /// One channel of luminance (`GRAY`).
        case gray
        /// Four channels of ink (`CMYK`).
        case cmyk
        /// Any other space, by its four-character signature (`Lab `, `YCbr`, `4CLR`...).
        case other(String)

        init(signature: UInt32) {
            switch signature {
            case 0x5247_4220: self = .rgb
            case 0x4752_4159: self = .gray
            case 0x434D_594B: self = .cmyk
            default: self = .other(ICCHeader.text(signature))
            }
        }

        public var description: String {
            switch self {
            case .rgb: "RGB"
            case .gray: "GRAY"
            case .cmyk: "CMYK"
            case .other(let signature): signature.trimmingCharacters(in: .whitespaces)
            }
        }
    }
}
