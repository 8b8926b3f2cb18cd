internal import CWebImageDecoding
import Foundation
import WebImageCore

/// What a PNG says about its colour, from the chunks before its image data: the ICC
/// profile of an `iCCP` chunk (inflated, at most ``ColorProfile/maximumByteCount``),
/// or an `sRGB` chunk, either of which overrides `gAMA` and `cHRM`; without them, the
/// gamma and chromaticities of `gAMA` and `cHRM`, as browsers read them. One pass over
/// the chunk headers up to the first `IDAT`, each chunk jumped over by its length.
enum PNGColorChunks {
    enum Statement {
        case none
        case profile(Data)
        /// `gAMA` (the decoding exponent, 100000 / the stored value) and `cHRM` (white,
        /// red, green, blue, x then y), either of which may be absent.
        case stated(exponent: Double?, chromaticities: [Double]?)
        case broken(String)
    }

    static func read(_ data: Data) -> Statement {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 8 else { return .none }
            func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
            var position = 8
            var exponent: Double?
            var chromaticities: [Double]?
            var broken: String?
            // A broken gAMA or cHRM is ignored, the rest of what the file states kept.
            var stated: Statement {
                guard exponent != nil || chromaticities != nil else { return broken.map { .broken($0) } ?? .none }
                return .stated(exponent: exponent, chromaticities: chromaticities)
            }
            func crcMatches(_ body: Int, _ length: Int) -> Bool {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[(body - 4)..<(body + length)])
                return CRC32.update(0, chunk) == UInt32(u32(body + length))
            }
            while position + 12 <= bytes.count {
                let length = u32(position)
                guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { return stated }
                let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
                let body = position + 8
                switch type {
                case (0x49, 0x44, 0x41, 0x54):  // IDAT: colour chunks come before it
                    return stated
                case (0x73, 0x52, 0x47, 0x42):  // sRGB
                    return .none
                case (0x67, 0x41, 0x4D, 0x41) where exponent == nil:  // gAMA; a second one is ignored
                    if length == 4, crcMatches(body, length), u32(body) > 0 {
                        exponent = 100_000 / Double(u32(body))
                    } else {
                        broken = "its gAMA chunk is malformed or states a gamma of 0"
                    }
                case (0x63, 0x48, 0x52, 0x4D) where chromaticities == nil:  // cHRM
                    if length == 32, crcMatches(body, length) {
                        chromaticities = (0..<8).map { Double(u32(body + 4 * $0)) / 100_000 }
                    } else {
                        broken = "its cHRM chunk is malformed"
                    }
                case (0x69, 0x43, 0x43, 0x50):  // iCCP
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(body + length)])
                    guard CRC32.update(0, chunk) == UInt32(u32(body + length)) else { return .broken("its iCCP chunk's CRC is wrong") }
                    return profile(UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)]))
                default:
                    break
                }
                position = body + length + 4
            }
            return stated
        }
    }

    /// The profile the pixels are in, as `DecodedImage.describeColor(of:)` decides it;
    /// `nil` for sRGB and for what it ignores.
    static func storedPixelProfile(_ data: Data) -> ColorProfile? {
        storedPixelProfile(read(data))
    }

    /// The profile the pixels are in, from what the chunks say.
    static func storedPixelProfile(_ statement: Statement) -> ColorProfile? {
        switch statement {
        case .profile(let icc): return DecodedImage.storedPixelProfile(embedding: icc)
        case .stated(let exponent, let chromaticities):
            guard let stated = try? statedProfile(exponent: exponent, chromaticities: chromaticities), !stated.isSRGB else { return nil }
            return stated
        case .none, .broken: return nil
        }
    }

    /// sRGB's cHRM values, white then red, green, blue.
    private static let srgbChromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// The profile `gAMA` and `cHRM` describe, `nil` when they describe sRGB: a gamma
    /// from 2.17 to 2.22 (a stored `gAMA` of 45000 to 46000, the range writers put for
    /// sRGB's 1/2.2) counts as the sRGB curve, chromaticities within 0.001 of sRGB's as
    /// sRGB's. Without `gAMA` the curve is sRGB's; without `cHRM` the primaries are.
    static func statedProfile(exponent: Double?, chromaticities: [Double]?) throws(ColorProfileError) -> ColorProfile? {
        let transfer: ColorProfile.TransferFunction =
            if let exponent, !(2.17...2.2223).contains(exponent) { .gamma(exponent) } else { .sRGB }
        let points = chromaticities.flatMap { values in
            zip(values, srgbChromaticities).allSatisfy { abs($0 - $1) <= 0.001 } ? nil : values
        }
        guard transfer != .sRGB || points != nil else { return nil }
        let p = points ?? srgbChromaticities
        var origin = "PNG"
        if let exponent { origin += " gAMA \(Int((100_000 / exponent).rounded()))" }
        if chromaticities != nil { origin += " cHRM" }
        return try ColorProfile.stated(
            white: (p[0], p[1]), red: (p[2], p[3]), green: (p[4], p[5]), blue: (p[6], p[7]), transfer: transfer, origin: origin)
    }

    /// The profile of an `iCCP` chunk's data: a name of 1 to 79 bytes, a zero, the
    /// compression method (0, zlib), the compressed profile.
    private static func profile(_ chunk: UnsafeRawBufferPointer) -> Statement {
        guard let zero = chunk.prefix(80).firstIndex(of: 0), zero >= 1, zero + 2 <= chunk.count, chunk[zero + 1] == 0 else {
            return .broken("its iCCP chunk has no name or an unknown compression")
        }
        let compressed = UnsafeRawBufferPointer(rebasing: chunk[(zero + 2)...])
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = wi_inflate(
            compressed.baseAddress?.assumingMemoryBound(to: UInt8.self), compressed.count, ColorProfile.maximumByteCount, &output, &length)
        switch status {
        case WI_INFLATE_OK:
            guard let output else { return .broken("its iCCP chunk is empty") }
            defer { free(output) }
            return .profile(Data(bytes: output, count: length))
        case WI_INFLATE_TOO_LARGE: return .broken("its iCCP profile inflates past \(ColorProfile.maximumByteCount) bytes")
        default: return .broken("its iCCP chunk does not inflate")
        }
    }
}

extension DecodedImage {
    /// Records what the PNG's colour chunks say (see ``PNGColorChunks``).
    mutating func describeColor(of png: Data) {
        describeColor(PNGColorChunks.read(png))
    }

    /// Records `statement`, what a PNG's colour chunks say.
    mutating func describeColor(_ statement: PNGColorChunks.Statement) {
        switch statement {
        case .none: break
        case .profile(let icc): attachEmbeddedProfile(icc)
        case .stated(let exponent, let chromaticities):
            do {
                guard let profile = try PNGColorChunks.statedProfile(exponent: exponent, chromaticities: chromaticities) else { return }
                sourceColorProfile = profile
                colorProfile = profile.isSRGB ? nil : profile
            } catch {
                warnings.append(DecodeWarning(.colorProfileIgnored, "the PNG's gAMA and cHRM are ignored: \(error)"))
            }
        case .broken(let reason): ignoreEmbeddedProfile(because: reason)
        }
    }
}
