import Foundation

/// Image files with one structure repeated N times: the inputs that show whether a
/// decoder's work stays linear in its input, so that a hostile file cannot hang it.
///
/// Each function takes a small valid file made by the encoders here and repeats one
/// structure in it, so the result still decodes (or, past a documented limit, must
/// fail with a known error). The scaling tests, the benchmarks and the fuzzer's seeds
/// all use them; nothing is stored in the repository.
///
/// ```swift
/// let photo = try JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 64, height: 48))
/// let slow = RepeatedStructures.jpeg(photo, repeating: .emptyApp(1), count: 200_000)
/// ```
public enum RepeatedStructures {
    // MARK: JPEG

    /// A JPEG segment that may appear any number of times before the frame header.
    public enum JPEGSegment: Sendable, Hashable {
        /// An empty APPn segment (`FF En 00 02`), n in 0...15.
        case emptyApp(Int)
        /// An APP1 segment holding the file's Exif block again (or a small one).
        case exif
        /// An empty comment (`FF FE 00 02`).
        case emptyComment
        /// The file's first quantization table segment (DQT) again.
        case quantizationTables
        /// The file's first Huffman table segment (DHT) again.
        case huffmanTables
    }

    /// `jpeg` with `count` copies of `segment` right after SOI.
    public static func jpeg(_ jpeg: Data, repeating segment: JPEGSegment, count: Int) -> Data {
        let bytes = [UInt8](jpeg)
        let unit: [UInt8]
        switch segment {
        case .emptyApp(let n): unit = [0xFF, 0xE0 + UInt8(n & 0x0F), 0x00, 0x02]
        case .emptyComment: unit = [0xFF, 0xFE, 0x00, 0x02]
        case .exif:
            // "Exif\0\0" and a little-endian TIFF header with an empty IFD0.
            let body: [UInt8] = Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            unit = [0xFF, 0xE1, 0x00, UInt8(body.count + 2)] + body
        case .quantizationTables: unit = firstSegment(0xDB, in: bytes)
        case .huffmanTables: unit = firstSegment(0xC4, in: bytes)
        }
        return inserting(unit, count: count, at: 2, into: bytes)
    }

    /// `bytes` with `count` copies of `unit` at `offset`.
    private static func inserting(_ unit: [UInt8], count: Int, at offset: Int, into bytes: [UInt8]) -> Data {
        var out = [UInt8](bytes[..<offset])
        out.reserveCapacity(bytes.count + unit.count * count)
        for _ in 0..<count { out += unit }
        out += bytes[offset...]
        return Data(out)
    }

    /// A progressive `jpeg` whose last scan (SOS and its entropy-coded data) is
    /// repeated `count` more times before EOI. Repeating a refinement scan is a bogus
    /// progression that libjpeg warns about and decodes; past the decoder's scan limit
    /// the file must be refused.
    public static func jpeg(_ jpeg: Data, repeatingLastScan count: Int) -> Data {
        let bytes = [UInt8](jpeg)
        guard let sos = lastMarker(0xDA, in: bytes), bytes.count >= 2,
            bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
        else { return jpeg }
        let scan = bytes[sos..<(bytes.count - 2)]
        var out = [UInt8](bytes[..<(bytes.count - 2)])
        out.reserveCapacity(bytes.count + scan.count * count)
        for _ in 0..<count { out += scan }
        out += [0xFF, 0xD9]
        return Data(out)
    }

    /// The whole segment (marker, length and body) of the first `marker` before SOS.
    private static func firstSegment(_ marker: UInt8, in bytes: [UInt8]) -> [UInt8] {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == marker { return Array(bytes[offset..<(offset + 2 + length)]) }
            if bytes[offset + 1] == 0xDA { break }
            offset += 2 + length
        }
        return []
    }

    /// The offset of the last `FF marker` in the file (a byte-stuffed `FF 00` never
    /// matches, and markers are not stuffed).
    private static func lastMarker(_ marker: UInt8, in bytes: [UInt8]) -> Int? {
        var index = bytes.count - 2
        while index >= 0 {
            if bytes[index] == 0xFF && bytes[index + 1] == marker { return index }
            index -= 1
        }
        return nil
    }

    // MARK: PNG

    /// An ancillary chunk that may appear any number of times.
    public enum PNGChunk: Sendable, Hashable {
        /// `tEXt` with a short keyword and text.
        case text
        /// `zTXt` holding a tiny zlib stream.
        case compressedText
        /// A private ancillary chunk no decoder knows (`prIv`).
        case unknown
    }

    /// `png` with `count` copies of `chunk` right after IHDR (so before IDAT).
    public static func png(_ png: Data, repeating chunk: PNGChunk, count: Int) -> Data {
        let unit: [UInt8]
        switch chunk {
        case .text: unit = pngChunk("tEXt", Array("Comment".utf8) + [0] + Array("hello".utf8))
        case .compressedText:
            // Keyword, NUL, method 0, and the zlib stream of an empty input.
            unit = pngChunk("zTXt", Array("Comment".utf8) + [0, 0, 0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        case .unknown: unit = pngChunk("prIv", [1, 2, 3, 4])
        }
        let afterIHDR = 8 + 25
        return inserting(unit, count: count, at: afterIHDR, into: [UInt8](png))
    }

    /// `png` with its image data re-cut into IDAT chunks of `bytesPerChunk` bytes (13
    /// bytes of chunk framing each).
    public static func png(_ png: Data, splittingImageDataInto bytesPerChunk: Int) -> Data {
        let chunks = pngChunks(in: png)
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let firstIDAT = chunks.firstIndex { $0.type == "IDAT" } ?? chunks.count
        var out = [UInt8](png.prefix(8))
        for chunk in chunks[..<firstIDAT] { out += pngChunk(chunk.type, chunk.data) }
        let size = max(1, bytesPerChunk)
        out.reserveCapacity(png.count + (data.count / size + 1) * 12)
        var start = 0
        while start < data.count {
            let end = min(data.count, start + size)
            out += pngChunk("IDAT", Array(data[start..<end]))
            start = end
        }
        for chunk in chunks[firstIDAT...] where chunk.type != "IDAT" { out += pngChunk(chunk.type, chunk.data) }
        return Data(out)
    }

    /// The chunks of a PNG after its signature, in order, as far as they are whole.
    public static func pngChunks(in png: Data) -> [(type: String, data: [UInt8])] {
        let bytes = [UInt8](png)
        var chunks: [(type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    /// One PNG chunk: length, type, data, CRC-32 of type and data.
    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = bigEndian(UInt32(data.count))
        out += typeBytes + data
        out += bigEndian(CRC32.checksum(typeBytes + data))
        return out
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    // MARK: GIF

    /// An extension that may appear any number of times before an image.
    public enum GIFExtensionKind: Sendable, Hashable {
        /// A comment extension with a short text.
        case comment
        /// An application extension no decoder knows (`XMPDataXMP`-like, empty data).
        case application
        /// A graphic control extension (the last one before the image is the one used).
        case graphicControl
    }

    /// `gif` with `count` copies of `kind` right after the global colour table.
    public static func gif(_ gif: Data, repeating kind: GIFExtensionKind, count: Int) -> Data {
        let unit: [UInt8]
        switch kind {
        case .comment: unit = [0x21, 0xFE, 5] + Array("hello".utf8) + [0]
        case .application: unit = [0x21, 0xFF, 11] + Array("EXAMPLE1.0 ".utf8) + [2, 0, 0, 0]
        case .graphicControl: unit = [0x21, 0xF9, 4, 0x00, 10, 0, 0, 0]
        }
        let bytes = [UInt8](gif)
        return inserting(unit, count: count, at: gifRecordsStart(bytes), into: bytes)
    }

    /// `gif` with every data sub-block chain (extensions and image data) re-cut into
    /// sub-blocks of one byte.
    public static func gif(oneByteSubBlocks gif: Data) -> Data {
        let bytes = [UInt8](gif)
        var offset = gifRecordsStart(bytes)
        var out = [UInt8](bytes[..<offset])
        out.reserveCapacity(bytes.count * 2)
        // Reads the chain at `offset` and writes its payload back one byte a block.
        func reblockChain() {
            while offset < bytes.count {
                let length = Int(bytes[offset])
                offset += 1
                if length == 0 { break }
                for byte in bytes[offset..<min(bytes.count, offset + length)] { out += [1, byte] }
                offset += length
            }
            out.append(0)
        }
        while offset < bytes.count {
            let record = bytes[offset]
            switch record {
            case 0x21:
                out += bytes[offset..<(offset + 2)]
                offset += 2
                reblockChain()
            case 0x2C:
                let flags = bytes[offset + 9]
                let table = gifColorTableSize(flags: flags)
                let header = 10 + table + 1  // descriptor, local table, LZW code size
                out += bytes[offset..<(offset + header)]
                offset += header
                reblockChain()
            default:
                out += bytes[offset...]
                return Data(out)
            }
        }
        return Data(out)
    }

    /// A GIF of `count` frames of 1x1 pixel at the top left of a `screen`-sided square
    /// screen (1 by default), alternating black and white, each with a graphic control
    /// extension. On a large screen each frame is a whole screen once composited.
    public static func gif(onePixelFrames count: Int, screen: Int = 1) -> Data {
        let side = [UInt8(truncatingIfNeeded: screen), UInt8(truncatingIfNeeded: screen >> 8)]
        var out: [UInt8] = Array("GIF89a".utf8) + side + side + [0x80, 0, 0]
        out += [0, 0, 0, 255, 255, 255]  // two-colour global table
        out.reserveCapacity(out.count + count * 23 + 1)
        for index in 0..<count {
            out += [0x21, 0xF9, 4, 0x04, 1, 0, 0, 0]
            out += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]
            // LZW, minimum code size 2: clear code, the pixel's index, end code.
            out += [2, 2, index % 2 == 0 ? 0x44 : 0x4C, 0x01, 0]
        }
        out.append(0x3B)
        return Data(out)
    }

    /// Where the records start: after the header, screen descriptor and global table.
    private static func gifRecordsStart(_ bytes: [UInt8]) -> Int {
        13 + gifColorTableSize(flags: bytes[10])
    }

    /// Bytes of the colour table a screen or image descriptor's packed `flags` announce.
    private static func gifColorTableSize(flags: UInt8) -> Int {
        flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0
    }
}

/// CRC-32 as PNG and zlib compute it (polynomial 0xEDB88320), table-driven.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    /// The CRC-32 of `bytes`.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
