import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Every animation of the corpus composed on demand, frame by frame in an order that
/// seeks back and forth, against its eager decode.
@Suite("Frame sources: the corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct FrameSourceCorpusTests {
    static let animations = Corpus.manifest.filter { entry in
        (entry.format == "gif" || entry.isAPNG) && (entry.frames ?? 1) > 1 && entry.expected != .mustFail
    }.map(\.file)

    static func decoder(for path: String) -> any ImageDecoding {
        path.hasSuffix(".gif") ? GIFDecoder() : PNGDecoder()
    }

    @Test("every frame equals the eager decode's frame", arguments: animations)
    func framesEqualTheEagerDecode(_ path: String) throws {
        let data = try Corpus.data(path)
        let decoder = Self.decoder(for: path)
        // A file the eager decode refuses (damage, truncation) has no frames to compare.
        guard let eager = try? decoder.decode(data, options: DecodeOptions(frameBuffering: .allFrames)), eager.frames.count > 1 else {
            return
        }
        let lazy = try decoder.decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0, snapshotInterval: 3)))
        let source = try #require(lazy.frameSource, "\(path)")
        #expect(lazy.frameCount == eager.frames.count)
        #expect(lazy.loopCount == eager.loopCount)
        let count = eager.frames.count
        // Forward, then from the end back, then the odd frames: restarts, snapshots and the buffer.
        let order = Array(0..<count) + Array((0..<count).reversed()) + Array(stride(from: 1, to: count, by: 2))
        for index in order {
            let frame = try lazy.frame(at: index)
            #expect(frame.bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "\(path) frame \(index)")
            #expect(source.duration(ofFrame: index) == eager.frames[index].duration, "\(path) frame \(index)")
        }
        source.releaseBuffer()
        let last = try source.frame(at: count - 1)
        #expect(last.bitmap.packedBytes == eager.frames[count - 1].bitmap.packedBytes)
    }
}
