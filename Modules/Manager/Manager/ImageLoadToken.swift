import WebImageCore

/// Cancels one load: it completes with ``ImageLoadError/cancelled`` at once (unless it
/// already completed) and gets nothing more. Safe from any thread, any number of times.
public final class ImageLoadToken: Cancellable, CustomStringConvertible {
    /// The shared work this load joined; `nil` for a load answered at once (a memory hit
    /// or a recent failure), for which cancelling does nothing.
    public let key: ImageLoadKey?
    private let onCancel: (@Sendable () -> Void)?

    init(key: ImageLoadKey?, onCancel: (@Sendable () -> Void)?) {
        self.key = key
        self.onCancel = onCancel
    }

    public func cancel() { onCancel?() }

    public var description: String { "ImageLoadToken(\(key?.description ?? "answered at once"))" }
}
