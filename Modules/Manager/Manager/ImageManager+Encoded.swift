import Foundation
import WebImageCore
import WebImageResources

extension ImageManager {
    /// The image `request` loads, written by `encoder`: what a server sends on (a
    /// thumbnail as a JPEG), made the cheapest way the manager has.
    ///
    /// 1. A decoded image the memory cache holds for `request` is encoded.
    /// 2. Otherwise, for a request with no transformers and a manager without
    ///    ``Configuration/variantStorage``, the source's bytes are loaded (disk cache,
    ///    shared tier, network, as any load) and each of ``Configuration/transcoders`` is
    ///    asked to make the file from them, with no decoded image in between. With the
    ///    umbrella's configuration, a JPEG wanted as a smaller JPEG is resampled in YCbCr
    ///    (`JPEGThumbnailTranscoder`), which skips the conversions to and from RGB, the
    ///    chroma upsampling and the four-byte resize. When no transcoder takes the bytes, those same
    ///    bytes are decoded and encoded (they are not loaded twice).
    /// 3. Otherwise the image is loaded as ``image(for:)`` loads it (stored variants,
    ///    transformers and the memory cache included), and encoded.
    ///
    /// Either way the result is the same image: the size, orientation and colours
    /// ``image(for:)`` gives; of an animation, its first frame (an `ImageEncoding` writes
    /// one bitmap). The decode, the transcode and the encode run on the manager's
    /// ``Configuration/executor``, the first two within its ``Configuration/memoryBudget``.
    /// A load answered from the source's bytes leaves no decoded image in the memory cache.
    ///
    /// - Throws: what ``image(for:)`` throws; an encoder's failure as
    ///   ``ImageLoadError/transform(_:)`` with its `encodingFailed` error.
    nonisolated(nonsending)
        public func encodedImage(for request: ImageRequest, encoder: any ImageEncoding) async throws(ImageLoadError) -> EncodedImage
    {
        let request = request.decoding
        if let image = try answeredAtOnce(request.keyed(by: configuration.cacheKeyFilter)) {
            return try await encoded(image, source: .memory, with: encoder)
        }
        if !configuration.transcoders.isEmpty, configuration.variantStorage == nil, request.context.transformers.isEmpty {
            return try await fromSourceBytes(request, encoder: encoder)
        }
        let response = try await response(for: request)
        guard let image = response.image else { preconditionFailure("a load that decodes delivers an image") }
        return try await encoded(image, source: response.source, with: encoder)
    }

    /// ``encodedImage(for:encoder:)`` with a completion, called once (on `delivery`) with
    /// the file or the error; cancelling the token cancels the load, whose completion
    /// then says ``ImageLoadError/cancelled``.
    @discardableResult
    public func loadEncodedImage(
        with request: ImageRequest, encoder: any ImageEncoding, delivery: CallbackDelivery = .immediate,
        completion: @escaping @Sendable (Result<EncodedImage, ImageLoadError>) -> Void
    ) -> EncodedImageLoadToken {
        let task = Task {
            let result: Result<EncodedImage, ImageLoadError>
            do throws(ImageLoadError) {
                result = .success(try await encodedImage(for: request, encoder: encoder))
            } catch {
                result = .failure(error)
            }
            delivery.run { completion(result) }
        }
        return EncodedImageLoadToken(task)
    }

    /// The file made from the source's bytes: by the first transcoder that takes them,
    /// else by decoding those same bytes here (not loading them a second time) and
    /// encoding the image. The budget holds the decode's estimate for either.
    nonisolated(nonsending)
        private func fromSourceBytes(_ request: ImageRequest, encoder: any ImageEncoding) async throws(ImageLoadError) -> EncodedImage
    {
        let response = try await response(for: request.with(options: request.options.union(.returnDataWithoutDecoding)))
        let data = response.data ?? Data()
        var options = request.decodeOptions
        // The encoder writes one bitmap: the rest of an animation would be decoded for nothing.
        options.firstFrameOnly = true
        let prepared: PreparedImageDecode
        do {
            prepared = try decoders.prepareDecode(data, options: options)
        } catch {
            throw .decoding(error, response: response.httpResponse, bytes: data.count)
        }
        var reservation: MemoryReservation?
        if let budget = configuration.memoryBudget, let bytes = prepared.estimatedMemory, bytes > 0 {
            do {
                reservation = try await budget.reserve(min(bytes, budget.capacity), priority: request.options.queuePriority)
            } catch {
                throw .cancelled
            }
        }
        defer { reservation?.release() }
        let transcoders = configuration.transcoders
        let made = await withTaskExecutorPreference(configuration.executor) { () -> TranscodedImage? in
            // A loop, not `lazy.compactMap(...).first`: that runs the taken transcode twice
            // (once to find the start index, once to read it).
            for transcoder in transcoders {
                if let made = transcoder.transcode(data, options: options, encoder: encoder) { return made }
            }
            return nil
        }
        if let made {
            return EncodedImage(data: made.data, format: made.format, size: made.size, source: response.source, path: .transcoded)
        }
        let image = try await withTaskExecutorPreference(configuration.executor) { () throws(ImageLoadError) -> DecodedImage in
            do throws(ImageDecodingError) {
                return try prepared.decode()
            } catch {
                throw .decoding(error, response: response.httpResponse, bytes: data.count)
            }
        }
        return try await encoded(image, source: response.source, with: encoder)
    }

    /// `image` written by `encoder`, on the manager's executor.
    private func encoded(_ image: DecodedImage, source: ImageSource, with encoder: any ImageEncoding) async throws(ImageLoadError)
        -> EncodedImage
    {
        let data = try await withTaskExecutorPreference(configuration.executor) { () throws(ImageLoadError) -> Data in
            do throws(ImageDecodingError) {
                return try encoder.encode(image.bitmap)
            } catch {
                throw .transform(error)
            }
        }
        return EncodedImage(data: data, format: encoder.format, size: image.size, source: source, path: .encoded)
    }
}

/// Cancels one ``ImageManager/loadEncodedImage(with:encoder:delivery:completion:)``.
public final class EncodedImageLoadToken: Cancellable, Sendable {
    private let task: Task<Void, Never>

    init(_ task: Task<Void, Never>) {
        self.task = task
    }

    public func cancel() { task.cancel() }
}
