internal import CLibAVIF
import Foundation
import WebImageCore
import WebImageDecoding

/// Decodes an AVIF from bytes fed as they arrive (see
/// ``AVIFDecoder/makeIncrementalDecoder(options:)``).
///
/// libavif decodes an AV1 picture only whole, so there is no partial image: the
/// decoder keeps the bytes, learns the size as soon as the container's boxes can be
/// read (refusing an image over the limits then, before the rest downloads), and
/// decodes in ``finish()``. It tries to read the container each time the bytes have
/// doubled since the last try, so a file fed in many small pieces costs linear work.
///
/// Thread contract: not `Sendable`; one task feeds it.
final class AVIFIncrementalDecoder: IncrementalImageDecoding {
    private let options: DecodeOptions
    private var received = Data()
    private var nextParseAt = 64
    private var finished = false

    private(set) var info: ImageInfo?
    let revision = 0

    init(options: DecodeOptions) {
        self.options = options
    }

    var format: ImageFormat { .avif }

    func append(_ data: Data) throws(ImageDecodingError) {
        guard !finished else { throw ImageDecodingError(.invalidState, "the decoder has already finished or failed", format: .avif) }
        received.append(data)
        guard info == nil, received.count >= nextParseAt else { return }
        nextParseAt = received.count * 2
        do {
            info = try received.withBytes { (bytes) throws(ImageDecodingError) in
                let session = try AVIFSession(bytes: bytes, options: options, complete: false)
                return ImageInfo(format: .avif, size: session.displaySize, orientation: session.transform.orientation)
            }
        } catch  where error.code == .truncated {
            return  // the header boxes have not all come yet
        } catch {
            finished = true
            received = Data()
            throw error
        }
    }

    func partialImage() throws(ImageDecodingError) -> DecodedImage? { nil }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        guard !finished else { throw ImageDecodingError(.invalidState, "the decoder has already finished or failed", format: .avif) }
        finished = true
        defer { received = Data() }
        return try AVIFDecoder().decode(received, options: options)
    }
}
