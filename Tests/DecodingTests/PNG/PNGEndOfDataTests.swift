import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

/// How a PNG's end is judged: `truncated` only when the data stopped inside the image
/// data; damage found in complete data is `corrupt`; a missing IEND costs nothing.
@Suite("PNG: the end of the data, and errors that say what happened")
struct PNGEndOfDataTests {
    /// 40x30 photo, one IDAT chunk.
    static let png = try! PNGFixtureEncoder().encode(SyntheticImage.photo(width: 40, height: 30))
    static let size = PixelSize(width: 40, height: 30)

    /// The chunks of a PNG as (type, data) pairs.
    static func chunks(_ png: Data) -> [(String, [UInt8])] {
        RepeatedStructures.pngChunks(in: png).map { ($0.type, $0.data) }
    }

    /// A PNG written from chunks, each with a correct CRC.
    static func assemble(_ chunks: [(String, [UInt8])]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks { bytes += RepeatedStructures.pngChunk(type, data) }
        return Data(bytes)
    }

    static func outcome(_ data: Data, slices: Int? = nil) -> Result<DecodedImage, ImageDecodingError> {
        Result { () throws(ImageDecodingError) in
            guard let slices else { return try PNGDecoder().decode(data) }
            let decoder = PNGDecoder().makeIncrementalDecoder(options: .default)
            for slice in data.randomSlices(maxSlice: slices, seed: 16) { try decoder.append(slice) }
            return try decoder.finish()
        }
    }

    static func expect(_ data: Data, _ code: ImageDecodingError.Code?, sourceLocation: SourceLocation = #_sourceLocation) {
        for slices in [nil, 1, 13, 4096] {
            switch outcome(data, slices: slices) {
            case .success(let image):
                #expect(
                    code == nil, "got an image, expected \(String(describing: code)) (slices \(String(describing: slices)))",
                    sourceLocation: sourceLocation)
                #expect(image.size == size, sourceLocation: sourceLocation)
            case .failure(let error):
                #expect(error.code == code, "\(error) (slices \(String(describing: slices)))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("a file that ends right after its last IDAT decodes, with IEND missing or cut")
    func missingIEND() {
        let whole = Self.png
        Self.expect(whole, nil)
        Self.expect(whole.prefix(whole.count - 12), nil)
        Self.expect(whole.prefix(whole.count - 5), nil)
        // Pixels match the whole file's.
        #expect(
            (try? PNGDecoder().decode(whole.prefix(whole.count - 12)))?.bitmap.packedBytes
                == (try? PNGDecoder().decode(whole))?.bitmap.packedBytes)
    }

    @Test("a file cut inside its last IDAT, even after every row, is truncated")
    func cutInsideIDAT() {
        let whole = Self.png
        // Without IEND (12 bytes) and the IDAT's CRC (4): every row may be there, the
        // CRC that vouches for them is not.
        Self.expect(whole.prefix(whole.count - 16), .truncated)
        Self.expect(whole.prefix(whole.count - 14), .truncated)
        Self.expect(whole.prefix(whole.count / 2), .truncated)
    }

    @Test("a wrong zlib checksum (Adler-32) in complete data is corrupt, not truncated")
    func wrongAdler() {
        var chunks = Self.chunks(Self.png)
        let index = chunks.firstIndex { $0.0 == "IDAT" }!
        let count = chunks[index].1.count
        chunks[index].1[count - 1] ^= 0x5A  // last byte of the Adler-32; the chunk CRC is redone
        let damaged = Self.assemble(chunks)
        Self.expect(damaged, .corrupt)
        if case .failure(let error) = Self.outcome(damaged) {
            #expect(error.message.contains("Adler-32"))
        }
    }

    @Test("a wrong IDAT CRC is corrupt")
    func wrongCRC() {
        var bytes = [UInt8](Self.png)
        bytes[bytes.count - 13] ^= 0xFF  // the last byte of the IDAT chunk's CRC
        Self.expect(Data(bytes), .corrupt)
    }

    @Test("image data that ends before the last row, followed by IEND, is corrupt")
    func rowsMissingBeforeIEND() {
        // IHDR says 40 rows, the (complete) zlib stream holds 30.
        var chunks = Self.chunks(Self.png)
        chunks[0].1[7] = 40
        Self.expect(Self.assemble(chunks), .corrupt)
        // Without IEND the image data might have gone on: truncated.
        Self.expect(Self.assemble(chunks.filter { $0.0 != "IEND" }), .truncated)
    }

    // Damage before the first IDAT is in the header part of the file: invalidHeader.
    @Test("a critical chunk other than IDAT over 4 KiB is refused; ancillary ones of any size are skipped")
    func chunkLengths() {
        var chunks = Self.chunks(Self.png)
        chunks.insert(("PLTE", [UInt8](repeating: 0, count: 4_100)), at: 1)
        Self.expect(Self.assemble(chunks), .invalidHeader)
        var skipped = Self.chunks(Self.png)
        skipped.insert(("zTXt", [UInt8](repeating: 7, count: 3_000_000)), at: 1)
        skipped.insert(("prIv", [UInt8](repeating: 1, count: 1_000_000)), at: 2)
        // libpng ignores a tRNS over 256 bytes as invalid; so do we, without reading it.
        skipped.insert(("tRNS", [UInt8](repeating: 1, count: 100_000)), at: 3)
        Self.expect(Self.assemble(skipped), nil)
    }

    @Test("a file whose first chunk is not IHDR is refused, even an ancillary one")
    func ihdrFirst() {
        var chunks = Self.chunks(Self.png)
        chunks.insert(("tEXt", Array("Comment\u{0}first".utf8)), at: 0)
        Self.expect(Self.assemble(chunks), .invalidHeader)
    }

    @Test("an unknown critical chunk is refused")
    func unknownCriticalChunk() {
        var chunks = Self.chunks(Self.png)
        chunks.insert(("CRIT", [1, 2, 3]), at: 1)
        Self.expect(Self.assemble(chunks), .invalidHeader)
        // After the image data it is damage.
        var late = Self.chunks(Self.png)
        late.insert(("CRIT", [1, 2, 3]), at: late.count - 1)
        Self.expect(Self.assemble(late), .corrupt)
    }

    @Test("the first eXIf counts, wherever it is, and only with a good CRC")
    func exif() throws {
        var chunks = Self.chunks(Self.png)
        chunks.insert(("eXIf", PNGChunks.exifOrientation(6)), at: 1)
        chunks.insert(("eXIf", PNGChunks.exifOrientation(3)), at: 2)
        #expect(try PNGDecoder().decode(Self.assemble(chunks)).orientation == .right)
        var bytes = [UInt8](Self.assemble(chunks))
        // Spoil the first eXIf's CRC: it is dropped, and the second is not taken instead.
        let exifEnd = 8 + 25 + 12 + PNGChunks.exifOrientation(6).count
        bytes[exifEnd - 1] ^= 0xFF
        #expect(try PNGDecoder().decode(Data(bytes)).orientation == .up)
    }
}
