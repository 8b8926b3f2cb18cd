internal import CWebImageDecoding
import Foundation
import WebImageCore

/// What a PNG says about its colour, from the chunks before its image data: the ICC
/// profile of an `iCCP` chunk (inflated, at most ``ColorProfile/maximumByteCount``),
/// or an `sRGB` chunk. One pass over the chunk headers up to the first `IDAT`, each
/// chunk jumped over by its length.
///
/// `gAMA` and `cHRM` without `iCCP` are not read: such files show as stored.
enum PNGColorChunks {
    enum Statement {
        case none
        case profile(Data)
        case broken(String)
    }

    static func read(_ data: Data) -> Statement {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 8 else { return .none }
            func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
            var position = 8
            while position + 12 <= bytes.count {
                let length = u32(position)
                guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { return .none }
                let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
                let body = position + 8
                switch type {
                case (0x49, 0x44, 0x41, 0x54):  // IDAT: colour chunks come before it
                    return .none
                case (0x73, 0x52, 0x47, 0x42):  // sRGB
                    return .none
                case (0x69, 0x43, 0x43, 0x50):  // iCCP
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(body + length)])
                    guard CRC32.update(0, chunk) == UInt32(u32(body + length)) else { return .broken("its iCCP chunk's CRC is wrong") }
                    return profile(UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)]))
                default:
                    break
                }
                position = body + length + 4
            }
            return .none
        }
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
        switch PNGColorChunks.read(png) {
        case .none: break
        case .profile(let icc): attachEmbeddedProfile(icc)
        case .broken(let reason): ignoreEmbeddedProfile(because: reason)
        }
    }
}
