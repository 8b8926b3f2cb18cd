import CBaselines
import Foundation
import WebImageCore
import WebImageEncoding
import WebImageFixtures

/// The encoder cases: ours beside the one-call C encoders on the same pixels.
enum EncodeCases {
    static let names = ["JPEG encode 4000x3000 q85", "WebP encode 1000x750 q80"]

    static func all() throws -> [BenchmarkCase] {
        let photo = try SyntheticImage.photo(width: 4000, height: 3000)
        let small = try SyntheticImage.photo(width: 1000, height: 750)
        let photoBytes = photo.packedBytes
        let smallBytes = small.packedBytes
        return [
            BenchmarkCase(
                section: .encode,
                name: names[0],
                contenders: [
                    Contender(name: "ours (JPEGEncoder)") { consume(try JPEGEncoder(quality: 85).encode(photo)) },
                    Contender(name: "tjCompress2") {
                        guard bl_jpeg_encode(photoBytes, 4000, 3000, 85) > 0 else {
                            throw Baseline.Failure(description: "tjCompress2 failed")
                        }
                    },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .encode,
                name: names[1],
                contenders: [
                    Contender(name: "ours (WebPEncoder)") { consume(try WebPEncoder(quality: 80).encode(small)) },
                    Contender(name: "WebPEncodeRGBA") {
                        guard bl_webp_encode(smallBytes, 1000, 750, 80) > 0 else {
                            throw Baseline.Failure(description: "WebPEncodeRGBA failed")
                        }
                    },
                ], rounds: 7, comparisons: [.sameLibrary]),
        ]
    }
}
