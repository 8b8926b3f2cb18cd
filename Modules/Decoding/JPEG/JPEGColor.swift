import Foundation
import WebImageCore

/// The colour of one JPEG decode: the embedded profile, and for CMYK files the transform
/// their rows go through (the ink cannot stay in an RGBA bitmap).
struct JPEGColor {
    private let embedded: JPEGDecompressor.EmbeddedProfile
    private let isCMYK: Bool
    /// The transform CMYK rows go through, `nil` for other files or without a converter.
    private(set) var cmykTransform: (any ColorTransforming)?
    private var warnings: [DecodeWarning] = []
    /// What the CMYK rows were converted to: `nil` for sRGB.
    private var cmykTarget: ColorProfile?
    private var cmykProfile: ColorProfile?

    init(header: JPEGHeader, embedded: JPEGDecompressor.EmbeddedProfile, options: DecodeOptions, converter: (any ColorConverting)?) {
        self.embedded = embedded
        isCMYK = header.colorModel == .cmyk
        guard isCMYK else { return }
        guard let converter else {
            warnings.append(DecodeWarning(.colorNotManaged, "CMYK converted with the naive formula: no colour engine"))
            return
        }
        if case .profile(let data) = embedded {
            do {
                let profile = try ColorProfile(iccData: data)
                if profile.colorSpace == .cmyk {
                    cmykProfile = profile
                } else {
                    warnings.append(DecodeWarning(.colorProfileIgnored, "a \(profile.colorSpace) profile on CMYK pixels is ignored"))
                }
            } catch {
                warnings.append(DecodeWarning(.colorProfileIgnored, "the embedded ICC profile is ignored: \(error)"))
            }
        }
        if case .convert(let target) = options.color, !target.isSRGB { cmykTarget = target }
        do {
            cmykTransform = try converter.transform(from: .invertedCMYK(cmykProfile), to: cmykTarget)
        } catch {
            // The embedded profile is unusable: the engine's default CMYK profile instead.
            warnings.append(DecodeWarning(.colorProfileIgnored, "the embedded CMYK profile is ignored: \(error)"))
            cmykProfile = nil
            cmykTransform = try? converter.transform(from: .invertedCMYK(nil), to: cmykTarget)
            if cmykTransform == nil {
                warnings.append(DecodeWarning(.colorNotManaged, "CMYK converted with the naive formula: no CMYK transform"))
            }
        }
    }

    /// Records the colour facts on the decoded image.
    func describe(_ image: inout DecodedImage) {
        image.warnings += warnings
        if isCMYK {
            image.sourceColorProfile = cmykProfile
            image.colorProfile = cmykTransform == nil ? nil : cmykTarget
            return
        }
        switch embedded {
        case .none: break
        case .profile(let data): image.attachEmbeddedProfile(data)
        case .broken(let reason): image.ignoreEmbeddedProfile(because: reason)
        }
    }
}
