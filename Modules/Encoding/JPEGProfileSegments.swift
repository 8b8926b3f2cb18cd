import Foundation
import WebImageCore

/// Writes an ICC profile into a JPEG as APP2 `ICC_PROFILE` segments: the profile cut in
/// chunks of at most 65,519 bytes (a segment's 65,535 less its length, the 12-byte
/// signature and the sequence number and count), numbered from 1, right after SOI and
/// any APP0 (JFIF) segment, as libjpeg's `jpeg_write_icc_profile` places them.
enum JPEGProfileSegments {
    static let chunkCapacity = 65_535 - 2 - 12 - 2

    static func insert(_ profile: ColorProfile, into jpeg: UnsafeBufferPointer<UInt8>) -> Data {
        var at = 2  // after SOI
        if jpeg.count >= 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        var out = Data(capacity: jpeg.count + profile.byteCount + 32)
        out.append(contentsOf: jpeg[0..<at])
        let chunks = stride(from: 0, to: profile.byteCount, by: chunkCapacity).map {
            profile.data[(profile.data.startIndex + $0)..<(profile.data.startIndex + min($0 + chunkCapacity, profile.byteCount))]
        }
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            out.append(contentsOf: [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)])
            out.append(contentsOf: Array("ICC_PROFILE".utf8) + [0])
            out.append(contentsOf: [UInt8(index + 1), UInt8(chunks.count)])
            out.append(chunk)
        }
        out.append(contentsOf: jpeg[at...])
        return out
    }
}
