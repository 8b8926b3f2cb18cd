/// A colour space stated by code points (ITU-T H.273, "coding-independent code
/// points"), as an AVIF's `nclx` box states it: colour primaries, transfer
/// characteristics and matrix coefficients.
///
/// ```swift
/// let displayP3 = CICP(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 1)
/// let profile = try displayP3.colorProfile()  // a profile to convert from; nil for sRGB
/// ```
public struct CICP: Sendable, Hashable, CustomStringConvertible {
    /// H.273's `ColourPrimaries`: 1 BT.709 (sRGB), 9 BT.2020, 12 Display P3...
    public var colorPrimaries: Int
    /// H.273's `TransferCharacteristics`: 13 sRGB, 16 PQ, 18 HLG...
    public var transferCharacteristics: Int
    /// H.273's `MatrixCoefficients`: how YUV was made from RGB; not part of the colour
    /// space (the decoder's YUV-to-RGB conversion reads it).
    public var matrixCoefficients: Int

    public init(colorPrimaries: Int, transferCharacteristics: Int, matrixCoefficients: Int) {
        self.colorPrimaries = colorPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
    }

    public var description: String {
        "primaries \(colorPrimaries), transfer \(transferCharacteristics), matrix \(matrixCoefficients)"
    }

    /// The RGB profile the code points describe, or `nil` when they describe sRGB (then
    /// no profile is made and no transform runs).
    ///
    /// Unspecified (2) and reserved-unknown (0) values count as sRGB's, as browsers take
    /// them. The transfer characteristics of the BT.709 family (1 BT.709, 6 BT.601, 11
    /// IEC 61966-2-4, 12 BT.1361, 14 and 15 BT.2020) are shown with the sRGB curve, as
    /// browsers show such stills; so BT.709 primaries with any of them cost nothing.
    /// PQ (16) and HLG (18) are clipped at SDR reference white (see
    /// ``ColorProfile/TransferFunction/pq``).
    ///
    /// - Throws: ``ColorProfileError`` `unusable` for primaries or a transfer function
    ///   with no profile here: XYZ primaries (10), the logarithmic transfers (9, 10),
    ///   SMPTE ST 428 (17), and reserved values.
    public func colorProfile() throws(ColorProfileError) -> ColorProfile? {
        guard let primaries = Self.primaries(colorPrimaries) else {
            throw ColorProfileError(.unusable, "colour primaries \(colorPrimaries) are not supported")
        }
        let transfer: ColorProfile.TransferFunction
        switch transferCharacteristics {
        case 0, 1, 2, 6, 11, 12, 13, 14, 15: transfer = .sRGB
        case 4: transfer = .gamma(2.2)
        case 5: transfer = .gamma(2.8)
        case 7: transfer = .smpte240
        case 8: transfer = .gamma(1)
        case 16: transfer = .pq
        case 18: transfer = .hlg
        default:
            throw ColorProfileError(.unusable, "transfer characteristics \(transferCharacteristics) are not supported")
        }
        if primaries.isBT709, transfer == .sRGB { return nil }
        return try ColorProfile.stated(
            white: primaries.white, red: primaries.red, green: primaries.green, blue: primaries.blue, transfer: transfer,
            origin: "CICP primaries \(colorPrimaries), transfer \(transferCharacteristics)")
    }

    private struct Primaries {
        var white: ColorProfile.Chromaticity
        var red: ColorProfile.Chromaticity
        var green: ColorProfile.Chromaticity
        var blue: ColorProfile.Chromaticity
        var isBT709 = false
    }

    private static let d65: ColorProfile.Chromaticity = (0.3127, 0.3290)
    private static let illuminantC: ColorProfile.Chromaticity = (0.310, 0.316)

    /// H.273's table of colour primaries.
    private static func primaries(_ code: Int) -> Primaries? {
        switch code {
        case 0, 1, 2: Primaries(white: d65, red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), isBT709: true)
        case 4: Primaries(white: illuminantC, red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08))
        case 5: Primaries(white: d65, red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06))
        case 6, 7: Primaries(white: d65, red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070))
        case 8: Primaries(white: illuminantC, red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049))
        case 9: Primaries(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))
        case 11: Primaries(white: (0.314, 0.351), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        case 12: Primaries(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        case 22: Primaries(white: d65, red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077))
        default: nil
        }
    }
}

extension DecodedImage {
    /// Records a colour space a file states by code points (an AVIF's `nclx`), for
    /// pixels decoded as stored: sRGB leaves them as they are; another space becomes
    /// ``colorProfile`` (a profile made from the code points, see
    /// ``CICP/colorProfile()``) for the registry to convert; a space with no profile
    /// here is ignored with a ``DecodeWarning/Code/colorProfileIgnored`` warning.
    ///
    /// For decoders, which read the code points; converting is the registry's part.
    public mutating func attachStatedColorSpace(_ cicp: CICP, in container: String) {
        do {
            guard var profile = try cicp.colorProfile() else { return }
            profile.origin = "\(container) \(cicp)"
            sourceColorProfile = profile
            colorProfile = profile.isSRGB ? nil : profile
        } catch {
            warnings.append(DecodeWarning(.colorProfileIgnored, "the \(container) colour space (\(cicp)) is ignored: \(error)"))
        }
    }
}
