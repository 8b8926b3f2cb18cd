import Foundation
import WebImageCore

/// The parts one load runs through, resolved from the manager and the load's context.
struct LoadStages: Sendable {
    let memory: (any MemoryCaching<CacheKey, DecodedImage>)?
    let disk: (any DataCaching)?
    let downloader: any ImageDownloading
    let decoders: any ImageDecoderProviding
    let failedURLs: FailedURLSet
    /// Where disk writes wait while loads run.
    let writes: DiskWriteBehind

    /// The disk cache's bytes for `request`, read on the calling thread (a synchronous
    /// function, so the synchronous read is the one called).
    func diskResponse(for request: ImageRequest) -> CachedResponse? {
        guard let disk else { return nil }
        return writes.waitingResponse(for: request.dataKey, in: disk) ?? disk.response(forKey: request.dataKey)
    }

    /// The image for `request`, decoded from `data` and transformed. `response` is the
    /// response the bytes came with, kept on a decoding error (`nil` for bytes from disk).
    func decodeAndTransform(
        _ data: Data, for request: ImageRequest, response: TransportResponse? = nil
    ) throws(ImageLoadError) -> DecodedImage {
        let image: DecodedImage
        do {
            image = try decoders.decodeImage(data, options: request.decodeOptions)
        } catch {
            throw .decoding(error, response: response, bytes: data.count)
        }
        try stopIfCancelled()
        return try transform(image, for: request)
    }

    func transform(_ image: DecodedImage, for request: ImageRequest) throws(ImageLoadError) -> DecodedImage {
        var result = image
        for transformer in request.context.transformers {
            try stopIfCancelled()
            do {
                result = try transformer.transform(result)
            } catch {
                throw .transform(error)
            }
        }
        return result
    }
}

/// The check between stages: a cancelled run stops before its next stage.
func stopIfCancelled() throws(ImageLoadError) {
    if Task.isCancelled { throw .cancelled }
}
