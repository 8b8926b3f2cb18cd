import Foundation
import Synchronization
import WebImage

@testable import WebImageConcurrency
@testable import WebImageCore

/// Everything one callback load saw, in order.
final class LoadLog: Sendable {
    private let events = Locked<[ImageLoadEvent]>([])
    private let done = AsyncStream<Result<ImageResponse, ImageLoadError>>.makeStream()
    private let partials = AsyncStream<DecodedImage>.makeStream()

    var handler: @Sendable (ImageLoadEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            switch event {
            case .completed(let result): done.continuation.yield(result)
            case .partial(let image): partials.continuation.yield(image)
            case .progress: break
            }
        }
    }

    /// Returns once the load has had a partial image. For one waiting test task.
    func partialArrived() async {
        for await _ in partials.stream { return }
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
