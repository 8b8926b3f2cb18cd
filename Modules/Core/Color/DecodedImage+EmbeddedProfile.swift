import Foundation

extension DecodedImage {
    /// Records the ICC profile a file embeds, for pixels decoded as stored (RGBA, or gray
    /// as R = G = B): an sRGB profile leaves the pixels in sRGB; an RGB or gray profile
    /// becomes ``colorProfile``; a profile that cannot describe the pixels (CMYK, Lab or
    /// another space on RGB pixels), over the size limit or malformed is ignored with a
    /// ``DecodeWarning/Code/colorProfileIgnored`` warning, as browsers ignore it.
    ///
    /// For decoders, which read the profile; converting is the registry's part.
    public mutating func attachEmbeddedProfile(_ iccData: Data) {
        let profile: ColorProfile
        do {
            profile = try ColorProfile(iccData: iccData)
        } catch {
            warnings.append(DecodeWarning(.colorProfileIgnored, "the embedded ICC profile is ignored: \(error)"))
            return
        }
        switch profile.colorSpace {
        case .rgb, .gray:
            sourceColorProfile = profile
            colorProfile = profile.isSRGB ? nil : profile
        case .cmyk, .other:
            warnings.append(
                DecodeWarning(.colorProfileIgnored, "the embedded \(profile.colorSpace) profile does not describe the image's RGB pixels"))
        }
    }

    /// The profile pixels decoded as stored are in when a file embeds `iccData`, as
    /// ``attachEmbeddedProfile(_:)`` decides it: `nil` for an sRGB profile and for one
    /// that is ignored. For frame readers, which carry no warnings.
    public static func storedPixelProfile(embedding iccData: Data) -> ColorProfile? {
        guard let profile = try? ColorProfile(iccData: iccData), profile.colorSpace == .rgb || profile.colorSpace == .gray,
            !profile.isSRGB
        else { return nil }
        return profile
    }

    /// Records a warning that an embedded profile could not be read whole (a JPEG's
    /// APP2 chunks missing or repeated, a PNG's `iCCP` that does not inflate).
    public mutating func ignoreEmbeddedProfile(because reason: String) {
        warnings.append(DecodeWarning(.colorProfileIgnored, "the embedded ICC profile is ignored: \(reason)"))
    }
}
