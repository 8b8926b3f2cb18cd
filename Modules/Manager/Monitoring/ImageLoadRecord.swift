import WebImageCore

/// One load from start to end, as ``ImageLoadRecorder`` gathers it from the load's
/// events: what log lines, metrics and traces are made of.
public struct ImageLoadRecord: Sendable {
    /// How the load ended.
    public enum Outcome: Sendable {
        case answered(ImageSource)
        case failed(ImageLoadError)
        case cancelled
    }

    /// The decode the load's run made, when it decoded.
    public struct Decode: Sendable, Hashable {
        public var size: PixelSize
        public var frames: Int
        public var duration: Duration
        /// When the decode ended.
        public var endedAt: ContinuousClock.Instant
    }

    /// The transformers' run, when there were transformers.
    public struct Transform: Sendable, Hashable {
        public var size: PixelSize
        public var duration: Duration
        public var endedAt: ContinuousClock.Instant
    }

    /// One wait for the network (``NetworkRecovery``) after the load's download failed
    /// because the network was not there.
    public struct NetworkWait: Sendable {
        /// The download's failure that made the load wait.
        public var error: DownloadError
        /// The observer's status that decided the wait.
        public var status: NetworkReachabilityStatus
        public var startedAt: ContinuousClock.Instant
        /// When and how the wait ended; `nil` while it waits.
        public var endedAt: ContinuousClock.Instant?
        public var outcome: NetworkRecovery.WaitOutcome?
    }

    public var load: ImageLoadInfo
    public var startedAt: ContinuousClock.Instant
    public var endedAt: ContinuousClock.Instant
    public var outcome: Outcome
    public var decode: Decode?
    public var transform: Transform?
    /// The caches the result was handed to, in order.
    public var stored: [ImageCacheType]
    /// The load's waits for the network, in order.
    public var networkWaits: [NetworkWait] = []
    /// The caches the result was stored in as a variant
    /// (``ImageManager/Configuration/variantStorage``), in order.
    public var storedVariants: [ImageCacheType] = []
    /// What the recorder's `startContext` returned where the load started (the caller's
    /// `ServiceContext`, for the tracing adapter); `nil` without one, and for a load that
    /// started before the recorder was added.
    public var startContext: (any Sendable)?

    /// From `loadImage` to the end.
    public var duration: Duration { endedAt - startedAt }

    /// The source of an answered load; `nil` for a failed or cancelled one.
    public var source: ImageSource? {
        if case .answered(let source) = outcome { return source }
        return nil
    }

    /// The error of a failed load.
    public var error: ImageLoadError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}
