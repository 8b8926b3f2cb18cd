internal import CWebImageColor
import Foundation
import WebImageCore

extension ColorProfile {
    /// An RGB profile made by LittleCMS from the chromaticities of its white point and
    /// primaries and one gamma for the three channels: to convert to a space of your
    /// own, or to make test images.
    ///
    /// ```swift
    /// // Red and green swapped: pixels in it show with the two exchanged.
    /// let swapped = try ColorProfile.rgb(
    ///     white: (0.3127, 0.3290), red: (0.30, 0.60), green: (0.64, 0.33), blue: (0.15, 0.06), gamma: 2.2)
    /// ```
    ///
    /// - Throws: `ColorProfileError` `unusable` when LittleCMS cannot make it.
    public static func rgb(
        white: Chromaticity, red: Chromaticity, green: Chromaticity, blue: Chromaticity, gamma: Double
    ) throws(ColorProfileError) -> ColorProfile {
        var length = 0
        let w = [white.x, white.y]
        let r = [red.x, red.y]
        let g = [green.x, green.y]
        let b = [blue.x, blue.y]
        guard let bytes = wi_color_make_rgb_profile(w, r, g, b, gamma, &length) else {
            throw ColorProfileError(.unusable, "LittleCMS could not make the RGB profile")
        }
        defer { free(bytes) }
        return try ColorProfile(iccData: Data(bytes: bytes, count: length))
    }

    /// A CMYK profile made by LittleCMS (a grid of CMYK to Lab) following the complement
    /// model r = (1 - c)(1 - k) in sRGB, raised to `shadowGamma`: with 1 it shows CMYK as
    /// the complement formula does; above 1 it darkens the midtones. Not a press profile:
    /// for tests, and as a stand-in where no press profile is at hand.
    ///
    /// - Throws: `ColorProfileError` `unusable` when LittleCMS cannot make it.
    public static func complementCMYK(shadowGamma: Double = 1) throws(ColorProfileError) -> ColorProfile {
        var length = 0
        guard let bytes = wi_color_make_cmyk_profile(shadowGamma, &length) else {
            throw ColorProfileError(.unusable, "LittleCMS could not make the CMYK profile")
        }
        defer { free(bytes) }
        return try ColorProfile(iccData: Data(bytes: bytes, count: length))
    }
}
