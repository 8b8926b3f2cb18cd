import Foundation

/// The rule that says a profile is sRGB by what it does, not by its name.
///
/// A profile is sRGB when it is an RGB profile on the XYZ connection space whose three
/// colorants (`rXYZ`, `gXYZ`, `bXYZ`, adapted to D50 as every ICC profile stores them)
/// are within 0.003 of sRGB's, and whose three tone curves (`rTRC`, `gTRC`, `bTRC`, a
/// sampled `curv` or a parametric `para`) are within 0.002 of the sRGB curve in linear
/// light at 33 points from 0 to 1. Such a profile maps every pixel to within a fraction
/// of a level of what sRGB gives, so converting through it would only cost time. A
/// pure gamma 2.2 curve is 0.004 away in the shadows and is not sRGB; nor is a profile
/// built on lookup tables (`A2B0`) without colorants, which is converted.
enum SRGBRecognition {
    /// sRGB's colorants adapted to D50 (Bradford), as the IEC 61966-2.1 profiles store them.
    static let colorants: [(Double, Double, Double)] = [
        (0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141),
    ]
    static let colorantTolerance = 0.003
    static let curveTolerance = 0.002

    static func matches(_ header: ICCHeader) -> Bool {
        guard header.connectionSpace == 0x5859_5A20 else { return false }
        for (tag, expected) in zip(["rXYZ", "gXYZ", "bXYZ"], colorants) {
            guard let xyz = header.tag(tag).flatMap(xyzValue) else { return false }
            guard abs(xyz.0 - expected.0) <= colorantTolerance, abs(xyz.1 - expected.1) <= colorantTolerance,
                abs(xyz.2 - expected.2) <= colorantTolerance
            else { return false }
        }
        for tag in ["rTRC", "gTRC", "bTRC"] {
            guard let data = header.tag(tag), let curve = ToneCurve(data), isSRGBCurve(curve) else { return false }
        }
        return true
    }

    /// The sRGB transfer function, encoded value to linear light.
    static func srgbToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    private static func isSRGBCurve(_ curve: ToneCurve) -> Bool {
        (0...32).allSatisfy { step in
            let x = Double(step) / 32
            return abs(curve.evaluate(x) - srgbToLinear(x)) <= curveTolerance
        }
    }

    /// An `XYZ ` tag's first value.
    private static func xyzValue(_ data: Data) -> (Double, Double, Double)? {
        let bytes = Array(data)
        guard bytes.count >= 20, bytes[0..<4].elementsEqual("XYZ ".utf8) else { return nil }
        return (s15Fixed16(bytes, 8), s15Fixed16(bytes, 12), s15Fixed16(bytes, 16))
    }

    static func s15Fixed16(_ bytes: [UInt8], _ at: Int) -> Double {
        let raw = Int32(
            bitPattern: UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]))
        return Double(raw) / 65536
    }
}

/// A `curv` or `para` tone curve, evaluated without a colour engine.
struct ToneCurve {
    private enum Kind {
        case table([Double])
        case gamma(Double)
        /// ICC parametric function type and its parameters (g, a, b, c, d, e, f).
        case parametric(Int, [Double])
    }

    private let kind: Kind

    /// The curve in a `curv` or `para` tag, or `nil` for anything else or a short tag.
    init?(_ data: Data) {
        let bytes = Array(data)
        guard bytes.count >= 12 else { return nil }
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        if bytes[0..<4].elementsEqual("curv".utf8) {
            let count = Int(UInt32(bytes[8]) << 24 | UInt32(bytes[9]) << 16 | UInt32(bytes[10]) << 8 | UInt32(bytes[11]))
            guard count <= (bytes.count - 12) / 2 else { return nil }
            switch count {
            case 0: kind = .gamma(1)
            case 1: kind = .gamma(Double(u16(12)) / 256)
            default: kind = .table((0..<count).map { Double(u16(12 + 2 * $0)) / 65535 })
            }
        } else if bytes[0..<4].elementsEqual("para".utf8) {
            let type = u16(8)
            let counts = [1, 3, 4, 5, 7]
            guard type < counts.count, bytes.count >= 12 + 4 * counts[type] else { return nil }
            kind = .parametric(type, (0..<counts[type]).map { SRGBRecognition.s15Fixed16(bytes, 12 + 4 * $0) })
        } else {
            return nil
        }
    }

    func evaluate(_ x: Double) -> Double {
        switch kind {
        case .gamma(let g):
            return pow(x, g)
        case .table(let table):
            let position = x * Double(table.count - 1)
            let index = min(Int(position), table.count - 2)
            let fraction = position - Double(index)
            return table[index] + (table[index + 1] - table[index]) * fraction
        case .parametric(let type, let p):
            let g = p[0]
            switch type {
            case 0: return pow(x, g)
            case 1: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) : 0
            case 2: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) + p[3] : p[3]
            case 3: return x >= p[4] ? pow(p[1] * x + p[2], g) : p[3] * x
            default: return x >= p[4] ? pow(p[1] * x + p[2], g) + p[5] : p[3] * x + p[6]
            }
        }
    }
}
