import Foundation
import WebImageConcurrency
import WebImageCore
import WebImageResources

/// The parts one load runs through, resolved from the manager and the load's context.
struct LoadStages: Sendable {
    let memory: (any MemoryCaching<CacheKey, DecodedImage>)?
    let disk: (any DataCaching)?
    /// The fleet's tier between the disk cache and the network.
    let shared: (any SharedDataCaching)?
    let downloader: any ImageDownloading
    /// Waiting for the network after a download failed because it was down (`nil`: no
    /// waiting), on `clock`.
    let recovery: NetworkRecovery?
    let clock: any Clock<Duration>
    let decoders: any ImageDecoderProviding
    let failedURLs: FailedURLSet
    /// Where disk writes wait while loads run.
    let writes: DiskWriteBehind
    /// The run's monitors, told in the name of the load that started it.
    let events: LoadEventReporter
    /// The caching rules the load follows.
    let caching: LoadCaching
    /// The manager's revalidations behind stale answers.
    let revalidations: BackgroundRevalidations
    /// Where the run's task runs (`nil`: the cooperative pool).
    let executor: (any TaskExecutor)?
    /// Reserved from before a decode until the image has reached the load's callers
    /// (``BudgetedImage``).
    let memoryBudget: MemoryBudget?
    /// Where the load's variant is stored and under which key; `nil` when the manager
    /// stores none, or the load makes none.
    var variant: LoadVariant? = nil

    /// The disk cache's bytes for `request`, read on the calling thread (a synchronous
    /// function, so the synchronous read is the one called).
    func diskResponse(for request: ImageRequest) -> CachedResponse? {
        guard let disk else { return nil }
        return writes.waitingResponse(for: request.dataKey, in: disk) ?? disk.response(forKey: request.dataKey)
    }

    /// The metadata of `request`'s source bytes waiting to be written or on disk, without
    /// reading the bytes from disk (a variant's validator check).
    func diskMetadata(for request: ImageRequest) -> CachedResponseMetadata? {
        guard let disk else { return nil }
        return writes.waitingResponse(for: request.dataKey, in: disk)?.metadata ?? disk.metadata(forKey: request.dataKey)
    }

    /// The image for `request`, decoded from `data` and transformed, with the memory
    /// budget's reservation for its decode, asked at `priority` (the run's now: a load
    /// that joined may have raised it). `response` is the response the bytes came with,
    /// kept on a decoding error (`nil` for bytes from disk).
    ///
    /// The format is sniffed and the header parsed once (``PreparedImageDecode``): the
    /// budget's estimate and the decode read the same parse.
    func decodeAndTransform(
        _ data: Data, for request: ImageRequest, priority: DownloadPriority, response: TransportResponse? = nil
    ) async throws(ImageLoadError) -> BudgetedImage {
        // The header parse is decode work: its time counts in the decode's duration, the
        // wait for the budget does not.
        let preparing = events.isActive ? ContinuousClock.now : nil
        let prepared: PreparedImageDecode
        do {
            prepared = try decoders.prepareDecode(data, options: decodeOptions(for: request))
        } catch {
            throw .decoding(error, response: response, bytes: data.count)
        }
        let parsing = preparing.map { ContinuousClock.now - $0 } ?? .zero
        // A decode or transform that throws gives the bytes back as `reservation` goes
        // (a reservation releases itself when it is freed).
        let reservation = try await reserveMemory(prepared, priority: priority)
        let started = events.isActive ? ContinuousClock.now : nil
        let image: DecodedImage
        do {
            image = try prepared.decode()
        } catch {
            throw .decoding(error, response: response, bytes: data.count)
        }
        if let started { events.decoded(image, duration: parsing + (ContinuousClock.now - started)) }
        try stopIfCancelled()
        return BudgetedImage(image: try transform(image, for: request), reservation: reservation)
    }

    /// `request`'s decode options, an animation composed on demand charging the manager's
    /// memory budget for its canvases and buffers (unless the request names a budget).
    func decodeOptions(for request: ImageRequest) -> DecodeOptions {
        var options = request.decodeOptions
        options.frameBuffering = options.frameBuffering.charging(memoryBudget)
        return options
    }

    /// Waits for the memory budget to hold the decode's estimated peak; `nil` without a
    /// budget or an estimate.
    func reserveMemory(_ prepared: PreparedImageDecode, priority: DownloadPriority) async throws(ImageLoadError)
        -> MemoryReservation?
    {
        guard let memoryBudget, let bytes = prepared.estimatedMemory, bytes > 0
        else { return nil }
        do {
            return try await memoryBudget.reserve(bytes, priority: priority)
        } catch {
            throw .cancelled
        }
    }

    /// Runs the request's transformers; `reports` is off for partial images, whose
    /// transforms are not the load's.
    func transform(_ image: DecodedImage, for request: ImageRequest, reports: Bool = true) throws(ImageLoadError) -> DecodedImage {
        guard !request.context.transformers.isEmpty else { return image }
        let started = reports && events.isActive ? ContinuousClock.now : nil
        var result = image
        for transformer in request.context.transformers {
            try stopIfCancelled()
            do {
                result = try transformer.transform(result)
            } catch {
                throw .transform(error)
            }
        }
        if let started { events.transformed(to: result, duration: ContinuousClock.now - started) }
        return result
    }
}

/// A decoded and transformed image with the memory budget's reservation for its decode.
///
/// The reservation travels with the image into the run's ``ImageResponse`` and is given
/// back when the last copy of it goes: once every load sharing the run has its result (an
/// async caller when its task has resumed, a handler when it has returned; see
/// ``ImageResponse/handedOver``). Giving it back when the transforms were done let the
/// next decode start while the caller still held this image: 64 loads of a 1000-frame GIF
/// under a 256 MiB budget then peaked at 259-261 MiB, against 255-256 MiB this way.
struct BudgetedImage: Sendable {
    let image: DecodedImage
    let reservation: MemoryReservation?
}

/// The check between stages: a cancelled run stops before its next stage.
func stopIfCancelled() throws(ImageLoadError) {
    if Task.isCancelled { throw .cancelled }
}
