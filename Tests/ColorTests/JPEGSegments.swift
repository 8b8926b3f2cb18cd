import CLCMS2
import Foundation
import WebImageColor
import WebImageCore

/// APP2 `ICC_PROFILE` segments written by hand into a JPEG, to test what a file may hold.
enum JPEGSegments {
    enum Damage: CaseIterable { case missingChunk, repeatedChunk, inconsistentCount, zeroSequence }

    /// `file` with `bytes` in APP2 segments of at most 65,519 bytes, in order, after SOI.
    static func withRawProfile(_ file: Data, _ bytes: Data) -> Data {
        let chunks = split(bytes, size: 65_519)
        return insert(chunks.enumerated().map { segment($1, sequence: $0 + 1, count: chunks.count) }, into: file)
    }

    /// `file` with `profile` in APP2 segments of `chunkSize` bytes, last first, and
    /// damaged as asked.
    static func reordered(_ file: Data, profile: ColorProfile, chunkSize: Int, damage: Damage? = nil) -> Data {
        let chunks = split(profile.data, size: chunkSize)
        var segments = chunks.enumerated().map { (sequence: $0 + 1, chunk: $1) }.reversed().map {
            segment($0.chunk, sequence: $0.sequence, count: chunks.count)
        }
        switch damage {
        case nil: break
        case .missingChunk: segments.remove(at: 1)
        case .repeatedChunk: segments.append(segments[0])
        case .inconsistentCount: segments[1] = segment(chunks[chunks.count - 2], sequence: chunks.count - 1, count: chunks.count + 1)
        case .zeroSequence: segments[0] = segment(chunks[chunks.count - 1], sequence: 0, count: chunks.count)
        }
        return insert(segments, into: file)
    }

    private static func split(_ bytes: Data, size: Int) -> [Data] {
        stride(from: 0, to: bytes.count, by: size).map {
            Data(bytes[(bytes.startIndex + $0)..<(bytes.startIndex + min($0 + size, bytes.count))])
        }
    }

    private static func segment(_ chunk: Data, sequence: Int, count: Int) -> Data {
        let length = 2 + 12 + 2 + chunk.count
        var out = Data([0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)])
        out.append(contentsOf: Array("ICC_PROFILE".utf8) + [0, UInt8(truncatingIfNeeded: sequence), UInt8(truncatingIfNeeded: count)])
        out.append(chunk)
        return out
    }

    private static func insert(_ segments: [Data], into file: Data) -> Data {
        var out = Data(file.prefix(2))
        for segment in segments { out.append(segment) }
        out.append(file.dropFirst(2))
        return out
    }
}

/// Profiles a hostile or careless file may carry.
enum HostileProfile: CaseIterable, CustomStringConvertible {
    case truncated, hugeDeclaredSize, garbage, tagOutside, unusable, overSizeLimit

    var description: String { String(describing: Self.self) + "." + name }
    private var name: String {
        switch self {
        case .truncated: "truncated"
        case .hugeDeclaredSize: "hugeDeclaredSize"
        case .garbage: "garbage"
        case .tagOutside: "tagOutside"
        case .unusable: "unusable"
        case .overSizeLimit: "overSizeLimit"
        }
    }

    var bytes: Data {
        let valid = (try? SRGBProfiles.adobeLike()) ?? Data()
        switch self {
        case .truncated:
            return valid.prefix(valid.count / 2)
        case .hugeDeclaredSize:
            var copy = valid
            copy.replaceSubrange(0..<4, with: [0x7F, 0xFF, 0xFF, 0xFF])
            return copy
        case .garbage:
            var generator = SystemRandomNumberGenerator()
            return Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case .tagOutside:
            var copy = valid
            // The first tag's offset, far past the end.
            copy.replaceSubrange(136..<140, with: [0x00, 0xFF, 0x00, 0x00])
            return copy
        case .unusable:
            // A whole header and tag table, but every tag's data is noise.
            var copy = valid
            let count = Int(copy[131])
            let start = 132 + 12 * count
            for index in start..<copy.count { copy[index] = UInt8(truncatingIfNeeded: index &* 131) }
            return copy
        case .overSizeLimit:
            var copy = valid
            copy.append(Data(count: ColorProfile.maximumByteCount))
            let size = copy.count
            copy.replaceSubrange(
                0..<4, with: [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)])
            return copy
        }
    }
}

/// Profiles LittleCMS makes, serialised.
enum SRGBProfiles {
    /// LittleCMS's own sRGB profile.
    static func littleCMS() -> Data {
        let profile = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }

    /// An Adobe RGB-like profile (matrix and gamma 2.2).
    static func adobeLike() throws -> Data {
        try ColorProfile.rgb(white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), gamma: 2.2).data
    }

    private static func save(_ profile: cmsHPROFILE?) -> Data {
        var size: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return Data(bytes)
    }
}
