import Foundation
import WebImage
import WebImageTestServer

/// A thumbnail service answering with files: the fetch-and-thumbnail case's 300 JPEGs,
/// each made into a 256 px JPEG (quality 80) through the manager, by
/// `encodedImage(for:encoder:)` (a JPEG of a JPEG transcoded in YCbCr planes) beside the
/// same manager's decode and the JPEG encoder after it, in the same run.
enum EncodedThumbnailCase {
    static let name = "Fetch and encode 300 JPEG thumbnails (1600x1200 to 256 px JPEG), 16 at a time"
    static let decodeAndEncode = "ours, image(for:) + JPEGEncoder"
    static let encoder = JPEGEncoder(quality: 80)

    static func all(server: LoopbackServer) throws -> [BenchmarkCase] {
        guard let root = ColdLoadCases.root else { throw Baseline.Failure(description: "\(name): no document root") }
        try FetchThumbnailCase.writeFiles(into: URL(fileURLWithPath: root))
        let urls = (0..<FetchThumbnailCase.count).map { server.url("/files/\(FetchThumbnailCase.fileName($0))") }
        var manager: ImageManager?
        func contender(_ name: String, transcodes: Bool) -> Contender {
            Contender(
                name: name,
                run: {
                    guard let manager else { throw Baseline.Failure(description: "\(Self.name): no manager") }
                    try encode(urls, through: manager, transcodes: transcodes)
                },
                prepare: {
                    server.resetRecords()
                    manager = FetchThumbnailCase.freshManager()
                })
        }
        return [
            BenchmarkCase(
                section: .thumbnails, name: name,
                contenders: [
                    contender("ours, encodedImage (JPEG transcoded in YCbCr)", transcodes: true),
                    contender(decodeAndEncode, transcodes: false),
                ],
                imagesPerRun: urls.count, rounds: 5,
                // The planes skip the colour conversions, the chroma upsampling and the
                // four-byte resize; the entropy decode both paths share is most of the
                // work (the planes alone decode 4 to 13 % faster), so a few percent.
                comparisons: [.rate(.atLeast(1.05), against: decodeAndEncode)])
        ]
    }

    /// Every URL, 16 in flight at a time, each checked to be a 256x192 file made the way
    /// the contender says.
    static func encode(_ urls: [URL], through manager: ImageManager, transcodes: Bool) throws {
        let size = PixelSize(width: 256, height: 192)
        try FetchThumbnailCase.forEach(urls, caseName: name, what: "files were 256x192 JPEGs made as asked") { request in
            if transcodes {
                let file = try await manager.encodedImage(for: request, encoder: encoder)
                return file.path == .transcoded && file.size == size
            }
            let image = try await manager.image(for: request)
            return try !encoder.encode(image.bitmap).isEmpty && image.size == size
        }
    }
}
