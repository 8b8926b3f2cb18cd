import Foundation
import WebImageConcurrency
import WebImageCore

extension ImageManager {
    /// Loads `request` and returns the response; cancelling the calling task cancels the
    /// load. A memory hit returns on the caller's executor, without a task or a hop.
    nonisolated(nonsending)
        public func response(for request: ImageRequest) async throws(ImageLoadError) -> ImageResponse
    {
        let request = request.keyed(by: configuration.cacheKeyFilter)
        if let image = try answeredAtOnce(request) {
            return ImageResponse(image: image, data: nil, source: .memory, request: request)
        }
        return try await joinRun(request)
    }

    /// The load of a keyed `request` that nothing answered at once.
    nonisolated(nonsending)
        private func joinRun(_ request: ImageRequest) async throws(ImageLoadError) -> ImageResponse
    {
        let result = await withCancellableContinuation { (resume: @escaping @Sendable (Result<ImageResponse, ImageLoadError>) -> Void) in
            subscribe(request, delivery: .immediate, takesProgress: false, keepsBudgetReservation: true) { event in
                if case .completed(let result) = event { resume(result) }
            }
        }
        // The decode's budget bytes go back with `result`, once this task has resumed (and
        // every other load of the run has its result): not as the run ends, which let the
        // next decode start writing while this caller had yet to take (and drop) the image.
        return try result.get().handedOver
    }

    /// The decoded image for `request` (``ImageLoadOptions/returnDataWithoutDecoding`` is
    /// ignored here: this call always decodes).
    nonisolated(nonsending)
        public func image(for request: ImageRequest) async throws(ImageLoadError) -> DecodedImage
    {
        let request = request.decoding
        // The memory hit, answered here without making a response it would drop.
        let keyed = request.keyed(by: configuration.cacheKeyFilter)
        if let image = try answeredAtOnce(keyed) { return image }
        guard let image = try await joinRun(keyed).image else {
            preconditionFailure("a load that decodes delivers an image")
        }
        return image
    }

    /// The decoded image at `url`.
    nonisolated(nonsending)
        public func image(for url: URL, options: ImageLoadOptions = []) async throws(ImageLoadError) -> DecodedImage
    {
        try await image(for: ImageRequest(url: url, options: options))
    }

    /// The load's events as they happen: progress, partial images, then the result, after
    /// which the sequence ends. A consumer that falls behind gets the newest progress and
    /// the newest partial image (in the order they came), then the result: it skips only
    /// what a newer event of the same kind replaced. Ending the iteration early, or
    /// cancelling its task, cancels the load.
    public func events(for request: ImageRequest) -> AsyncStream<ImageLoadEvent> {
        .subscription { handler in loadImage(with: request, delivery: .immediate, handler: handler) }
    }
}
