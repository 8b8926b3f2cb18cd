import CBaselines
import Foundation
import WebImageAVIF
import WebImageCore
import WebImageFixtures

/// The AVIF cases: ours beside libavif's own calls on the same bytes and pixels.
/// The inputs are written by our encoder at start (libaom, speed 8), only when these
/// cases run: a 2000x1500 encode takes seconds.
enum AVIFCases {
    static let names = ["AVIF 2000x1500 decode", "AVIF encode 500x375 q60 speed 8"]

    static func all() throws -> [BenchmarkCase] {
        let photo = try SyntheticImage.photo(width: 2000, height: 1500)
        let file = try AVIFEncoder(quality: 60, speed: 8).encode(photo)
        let thumbnail = try SyntheticImage.photo(width: 500, height: 375, seed: 11)
        let thumbnailBytes = thumbnail.packedBytes
        let quantizer = AVIFEncoder.quantizer(quality: 60)
        try verify(file)
        let oursSize = try AVIFEncoder(quality: 60, speed: 8).encode(thumbnail).count
        let bareSize = bl_avif_encode(thumbnailBytes, 500, 375, quantizer, 8)
        print("AVIF encode 500x375: ours \(oursSize) bytes, avifEncoderWrite \(bareSize) bytes")
        print("AVIF fixture: 2000x1500, \(file.count) bytes (\(String(format: "%.2f", Double(file.count * 8) / 3_000_000)) bits a pixel)\n")
        return [
            BenchmarkCase(
                section: .decode,
                name: names[0],
                contenders: [
                    Contender(name: "ours") { consume(try AVIFDecoder().decode(file)) },
                    Contender(name: "avifDecoderRead + YUVToRGB") { try Baseline.avif(file) },
                ], rounds: 9, comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .encode,
                name: names[1],
                contenders: [
                    Contender(name: "ours (AVIFEncoder)") { consume(try AVIFEncoder(quality: 60, speed: 8).encode(thumbnail)) },
                    Contender(name: "avifEncoderWrite") {
                        guard bl_avif_encode(thumbnailBytes, 500, 375, quantizer, 8) > 0 else {
                            throw Baseline.Failure(description: "avifEncoderWrite failed")
                        }
                    },
                ], rounds: 9, comparisons: [.sameLibrary]),
        ]
    }

    /// Ours and libavif's calls give the same pixels, before anything is timed.
    private static func verify(_ file: Data) throws {
        let ours = try AVIFDecoder().decode(file).bitmap.packedBytes
        let bare = try Baseline.avifPixels(file)
        guard ours == bare else {
            throw Baseline.Failure(description: "AVIF: ours and avifImageYUVToRGB differ (\(ours.count) and \(bare.count) bytes)")
        }
    }
}

extension Baseline {
    /// libavif's one-call decode and conversion to RGBA.
    @discardableResult
    static func avif(_ data: Data) throws -> (width: Int, height: Int) {
        let out = try data.withUnsafeBytes { bytes in
            try run("avifDecoderRead", .pixelStorage) { allocate, context, width, height in
                bl_avif_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocate, context, width, height)
            }
        }
        return (out.width, out.height)
    }

    /// The pixels of ``avif(_:)``, for the check that ours are the same.
    static func avifPixels(_ data: Data) throws -> [UInt8] {
        let (out, storages) = try data.withUnsafeBytes { bytes in
            try runKeeping("avifDecoderRead", .pixelStorage) { allocate, context, width, height in
                bl_avif_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, allocate, context, width, height)
            }
        }
        guard let first = storages.first else { return [] }
        return first.withUnsafeBytes { Array($0.prefix(out.width * out.height * 4)) }
    }
}
