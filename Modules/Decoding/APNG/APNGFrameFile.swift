import Foundation

/// A plain PNG file holding one APNG frame, for libpng (which knows nothing of APNG):
/// the signature, IHDR with the frame's size, the file's PLTE and tRNS chunks, one IDAT
/// holding the frame's zlib data, and IEND. Its size is the frame's data plus a few
/// dozen bytes, so making every frame's file is linear in the input.
enum APNGFrameFile {
    static func make(_ frame: APNGStructure.Frame, of structure: APNGStructure, in file: Data) -> Data {
        file.withUnsafeBytes { bytes in
            var out = Data()
            out.reserveCapacity(64 + structure.paletteChunks.reduce(0) { $0 + $1.count } + frame.data.reduce(0) { $0 + $1.count })
            out.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            var header = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[structure.header]))
            for (offset, value) in [(0, frame.width), (4, frame.height)] {
                header[offset] = UInt8(truncatingIfNeeded: value >> 24)
                header[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
                header[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
                header[offset + 3] = UInt8(truncatingIfNeeded: value)
            }
            header.withUnsafeBytes { appendChunk("IHDR", [$0], to: &out) }
            for chunk in structure.paletteChunks { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[chunk])) }
            appendChunk("IDAT", frame.data.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }, to: &out)
            appendChunk("IEND", [], to: &out)
            return out
        }
    }

    /// Appends a chunk whose data is `parts` joined, with its length and CRC.
    private static func appendChunk(_ type: String, _ parts: [UnsafeRawBufferPointer], to out: inout Data) {
        let length = parts.reduce(0) { $0 + $1.count }
        out.append(contentsOf: [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        let typeBytes = Array(type.utf8)
        out.append(contentsOf: typeBytes)
        var crc = typeBytes.withUnsafeBytes { CRC32.update(0, $0) }
        for part in parts {
            out.append(contentsOf: part)
            crc = CRC32.update(crc, part)
        }
        out.append(contentsOf: [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    }
}
