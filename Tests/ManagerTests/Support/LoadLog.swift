import Foundation
import Synchronization
import WebImage

@testable import WebImageConcurrency
@testable import WebImageCore

/// Everything one callback load saw, in order.
final class LoadLog: Sendable {
    private let events = Locked<[ImageLoadEvent]>([])
    private let done = AsyncStream<Result<ImageResponse, ImageLoadError>>.makeStream()

    var handler: @Sendable (ImageLoadEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            if case .completed(let result) = event { done.continuation.yield(result) }
        }
    }

    func result() async -> Result<ImageResponse, ImageLoadError> {
        for await result in done.stream { return result }
        fatalError("the stream never ends without a result")
    }

    var all: [ImageLoadEvent] { events.withLock { $0 } }
    var completions: Int { all.filter(\.isCompletion).count }
    /// The bytes received, as each progress event said.
    var progress: [Int64] { all.compactMap { if case .progress(let received, _) = $0 { received } else { nil } } }
    var partialImages: [DecodedImage] { all.compactMap { if case .partial(let image) = $0 { image } else { nil } } }
}

/// The result of an async throwing call, as a value to look into.
func outcome<T>(_ body: () async throws(ImageLoadError) -> T) async -> Result<T, ImageLoadError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
