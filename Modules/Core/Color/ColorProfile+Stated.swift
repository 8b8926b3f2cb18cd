import Foundation

extension ColorProfile {
    /// A chromaticity: the x and y of CIE xyY.
    public typealias Chromaticity = (x: Double, y: Double)

    /// How an RGB space's stored values map to light, for a profile made from numbers a
    /// file states (see ``stated(white:red:green:blue:transfer:origin:)``).
    public enum TransferFunction: Sendable, Hashable {
        /// The sRGB curve (IEC 61966-2-1).
        case sRGB
        /// A pure power: light = value ^ `gamma` (2.2 for a PNG whose `gAMA` is 45455).
        case gamma(Double)
        /// SMPTE ST 240's camera curve, inverted.
        case smpte240
        /// SMPTE ST 2084 (PQ), light relative to SDR reference white (203 cd/m², ITU-R
        /// BT.2408), brighter values clipped to white.
        case pq
        /// ARIB STD-B67 (HLG): the inverse OETF, then BT.2100's system gamma of 1.2 for
        /// a 1000 cd/m² display, channel by channel, relative to SDR reference white
        /// (203 cd/m², which HLG puts at 75 % signal), brighter values clipped to white.
        case hlg
    }

    /// An RGB profile written from a white point, three primaries and a transfer
    /// function: what a decoder makes when a file states its colour space by numbers
    /// (an AVIF's `nclx` box, a PNG's `gAMA` and `cHRM`) rather than embedding a profile,
    /// so that it converts as an embedded one does.
    ///
    /// The profile is ICC v4, matrix and curves: the primaries adapted to D50 with the
    /// Bradford transform (as LittleCMS and every ICC profile store them), a parametric
    /// curve, or for PQ and HLG a table of 4,096 points. Values that describe sRGB give
    /// a profile whose ``isSRGB`` is true, which no transform is run for.
    ///
    /// ```swift
    /// let displayP3 = try ColorProfile.stated(
    ///     white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
    ///     transfer: .sRGB, origin: "Display P3")
    /// ```
    ///
    /// - Parameters:
    ///   - white: the white point's chromaticity (D65 is (0.3127, 0.3290)).
    ///   - red: the red primary's chromaticity.
    ///   - green: the green primary's chromaticity.
    ///   - blue: the blue primary's chromaticity.
    ///   - transfer: how stored values map to light.
    ///   - origin: what the values came from, for people (``origin``).
    /// - Throws: ``ColorProfileError`` `unusable` when the chromaticities cannot make a
    ///   space (a y of zero or below, primaries on one line, a white outside them).
    public static func stated(
        white: Chromaticity, red: Chromaticity, green: Chromaticity, blue: Chromaticity, transfer: TransferFunction,
        origin: String
    ) throws(ColorProfileError) -> ColorProfile {
        let matrix = try StatedProfileWriter.colorants(white: white, red: red, green: green, blue: blue)
        var profile = try ColorProfile(iccData: StatedProfileWriter.write(colorants: matrix, transfer: transfer, name: origin))
        profile.origin = origin
        return profile
    }
}

/// Writes matrix-and-curves ICC v4 profiles, byte by byte: no colour engine is needed
/// to describe a space a file states by numbers.
enum StatedProfileWriter {
    typealias Matrix = [[Double]]

    static let d50 = [0.9642, 1.0, 0.8249]
    private static let bradford: Matrix = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]

    /// The RGB-to-XYZ matrix of the space, adapted to D50: its columns are the colorants.
    static func colorants(
        white: ColorProfile.Chromaticity, red: ColorProfile.Chromaticity, green: ColorProfile.Chromaticity,
        blue: ColorProfile.Chromaticity
    ) throws(ColorProfileError) -> Matrix {
        let points = [white, red, green, blue]
        guard points.allSatisfy({ $0.y > 1e-6 && $0.x >= 0 && $0.x + $0.y <= 1 + 1e-6 && $0.x.isFinite && $0.y.isFinite }) else {
            throw ColorProfileError(.unusable, "the chromaticities are not colours")
        }
        func xyz(_ c: ColorProfile.Chromaticity) -> [Double] { [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
        let primaries = transpose([xyz(red), xyz(green), xyz(blue)])
        guard let inverse = invert(primaries) else { throw ColorProfileError(.unusable, "the primaries lie on one line") }
        let whiteXYZ = xyz(white)
        let scale = multiply(inverse, whiteXYZ)
        guard scale.allSatisfy({ $0 > 0 }) else { throw ColorProfileError(.unusable, "the white point lies outside the primaries") }
        let toXYZ = primaries.map { row in (0..<3).map { row[$0] * scale[$0] } }
        return multiply(adaptation(from: whiteXYZ), toXYZ)
    }

    /// Bradford's adaptation from `white` to D50.
    static func adaptation(from white: [Double]) -> Matrix {
        let source = multiply(bradford, white)
        let target = multiply(bradford, d50)
        let gain: Matrix = (0..<3).map { row in (0..<3).map { row == $0 ? target[row] / source[row] : 0 } }
        return multiply(invert(bradford)!, multiply(gain, bradford))
    }

    static func write(colorants: Matrix, transfer: ColorProfile.TransferFunction, name: String) -> Data {
        let curve = curveTag(transfer)
        var tags: [(signature: String, data: [UInt8])] = [
            ("desc", descriptionTag(name)),
            ("wtpt", xyzTag(d50)),
            ("rXYZ", xyzTag((0..<3).map { colorants[$0][0] })),
            ("gXYZ", xyzTag((0..<3).map { colorants[$0][1] })),
            ("bXYZ", xyzTag((0..<3).map { colorants[$0][2] })),
        ]
        tags.append(contentsOf: [("rTRC", curve), ("gTRC", curve), ("bTRC", curve)])
        var body: [UInt8] = []
        var table: [UInt8] = u32(UInt32(tags.count))
        let start = 128 + 4 + 12 * tags.count
        var shared: [[UInt8]: Int] = [:]
        for tag in tags {
            let offset: Int
            if let existing = shared[tag.data] {
                offset = existing
            } else {
                offset = start + body.count
                shared[tag.data] = offset
                body += tag.data
                body += [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            }
            table += Array(tag.signature.utf8) + u32(UInt32(offset)) + u32(UInt32(tag.data.count))
        }
        let size = start + body.count
        var header = [UInt8](repeating: 0, count: 128)
        func put(_ bytes: [UInt8], at: Int) { header.replaceSubrange(at..<(at + bytes.count), with: bytes) }
        put(u32(UInt32(size)), at: 0)
        put([0x04, 0x30, 0, 0], at: 8)
        put(Array("mntrRGB XYZ ".utf8), at: 12)
        put(Array("acsp".utf8), at: 36)
        put(d50.flatMap(s15Fixed16), at: 68)
        return Data(header + table + body)
    }

    private static func curveTag(_ transfer: ColorProfile.TransferFunction) -> [UInt8] {
        func parametric(_ type: UInt16, _ parameters: [Double]) -> [UInt8] {
            Array("para".utf8) + [0, 0, 0, 0] + [UInt8(type >> 8), UInt8(type & 0xFF), 0, 0] + parameters.flatMap(s15Fixed16)
        }
        switch transfer {
        case .sRGB: return parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case .gamma(let gamma): return parametric(0, [gamma])
        case .smpte240: return parametric(3, [1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4, 0.0913])
        case .pq, .hlg:
            let count = 4096
            let values = (0..<count).map { index -> UInt16 in
                let light = min(1, max(0, HighDynamicRange.relativeLight(Double(index) / Double(count - 1), transfer)))
                return UInt16((light * 65535).rounded())
            }
            return Array("curv".utf8) + [0, 0, 0, 0] + u32(UInt32(count)) + values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    private static func xyzTag(_ value: [Double]) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + value.flatMap(s15Fixed16)
    }

    private static func descriptionTag(_ text: String) -> [UInt8] {
        let utf16 = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + [0, 0, 0, 0] + u32(1) + u32(12) + Array("enUS".utf8) + u32(UInt32(utf16.count)) + u32(28) + utf16
    }

    private static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func s15Fixed16(_ value: Double) -> [UInt8] {
        u32(UInt32(bitPattern: Int32((value * 65536).rounded())))
    }

    private static func transpose(_ m: Matrix) -> Matrix {
        (0..<3).map { row in (0..<3).map { m[$0][row] } }
    }

    private static func multiply(_ m: Matrix, _ v: [Double]) -> [Double] {
        m.map { row in zip(row, v).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    private static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + a[row][$1] * b[$1][column] } } }
    }

    private static func invert(_ m: Matrix) -> Matrix? {
        let determinant =
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        guard abs(determinant) > 1e-9 else { return nil }
        func cofactor(_ r: Int, _ c: Int) -> Double {
            let rows = (0..<3).filter { $0 != r }
            let columns = (0..<3).filter { $0 != c }
            let minor = m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
            return (r + c) % 2 == 0 ? minor : -minor
        }
        return (0..<3).map { row in (0..<3).map { column in cofactor(column, row) / determinant } }
    }
}

/// The HDR transfer functions, as light relative to SDR reference white.
enum HighDynamicRange {
    /// SDR reference white, cd/m² (ITU-R BT.2408).
    static let referenceWhite = 203.0

    /// Light for the encoded `value` (0 to 1), 1 at reference white; above 1 for highlights.
    static func relativeLight(_ value: Double, _ transfer: ColorProfile.TransferFunction) -> Double {
        switch transfer {
        case .pq:
            let m1 = 2610.0 / 16384
            let m2 = 2523.0 / 4096 * 128
            let c1 = 3424.0 / 4096
            let c2 = 2413.0 / 4096 * 32
            let c3 = 2392.0 / 4096 * 32
            let p = pow(value, 1 / m2)
            return pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1) * 10000 / referenceWhite
        case .hlg:
            let a = 0.17883277
            let b = 0.28466892
            let c = 0.55991073
            let scene = value <= 0.5 ? value * value / 3 : (exp((value - c) / a) + b) / 12
            return 1000 * pow(scene, 1.2) / referenceWhite
        default:
            return value
        }
    }
}
