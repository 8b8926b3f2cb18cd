import Foundation
import WebImageColor
import WebImageCore

/// Fuzz target `icc`: one input as an ICC profile, read by ``ColorProfile`` and, when
/// the header read accepts it, made into a LittleCMS transform that converts a row of
/// pixels.
public enum ICCHarness {
    /// A converter that keeps no more than a few transforms, as a fuzz run makes many.
    private static let converter = LittleCMSColorConverter(cacheCapacity: 4)

    /// Reads `data` as a profile; checks that an accepted profile's size is within the
    /// limit and its bytes are the input's first, and that any transform built converts
    /// pixels without touching alpha.
    public static func run(_ data: Data) -> FuzzOutcome {
        let profile: ColorProfile
        do {
            profile = try ColorProfile(iccData: data)
        } catch {
            return .rejected("\(error)")
        }
        fuzzCheck(profile.byteCount <= ColorProfile.maximumByteCount, "a profile of \(profile.byteCount) bytes")
        fuzzCheck(profile.data == data.prefix(profile.byteCount), "the profile's bytes are not the input's first")
        let source: ColorSource = profile.colorSpace == .cmyk ? .invertedCMYK(profile) : .profile(profile)
        let transform: any ColorTransforming
        do {
            transform = try converter.transform(from: source, to: nil)
        } catch {
            return .accepted("\(profile), refused by LittleCMS")
        }
        var pixels = [UInt8]()
        for index in 0..<64 {
            let level = UInt8(index)
            pixels += [level &* 4, 255 &- level &* 4, level &* 2, level]
        }
        pixels.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixelCount: 64) }
        if profile.colorSpace != .cmyk {
            fuzzCheck((0..<64).allSatisfy { pixels[4 * $0 + 3] == UInt8($0) }, "a transform changed alpha")
        }
        return .accepted("\(profile), converted")
    }
}
