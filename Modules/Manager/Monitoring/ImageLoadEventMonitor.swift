import Foundation
import WebImageCore

/// Observes a manager's loads, for logging, metrics and tracing: where each answer came
/// from, what decoding and transforming cost, what was stored, and how loads ended.
///
/// Every method has an empty default, so a monitor implements only what it needs. Each
/// monitor's methods run where its ``delivery`` says, one at a time: by default on a
/// serial queue the load monitors share, never on a load's own thread.
///
/// A load starts, then ends exactly once: answered (``load(_:didAnswerFrom:)``), failed
/// or cancelled. Loads of the same variant share one run of the pipeline (see
/// `ImageManager`), so decoding, transforming and storing happen once for all of them;
/// those events name the load that started the run.
public protocol ImageLoadEventMonitor: Sendable {
    /// Where this monitor's methods run. The default is one serial queue shared by the
    /// monitors that do not choose; `.immediate` runs them on the thread where things
    /// happen (keep them quick there).
    var delivery: CallbackDelivery { get }

    /// `loadImage` was called (also for a load the memory cache answers at once).
    func loadDidStart(_ load: ImageLoadInfo)
    /// The load got its image (or bytes) from `source`: memory, disk, network, or the disk
    /// after a 304.
    func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource)
    /// Bytes were decoded: the image's size and frame count, and the decode's wall time.
    func load(_ load: ImageLoadInfo, didDecode size: PixelSize, frames: Int, duration: Duration)
    /// The request's transformers ran over the decoded image, giving `size`.
    func load(_ load: ImageLoadInfo, didTransformTo size: PixelSize, duration: Duration)
    /// The result was handed to a cache: `.memory` once stored there, `.disk` once handed
    /// to the disk cache (a write that later fails goes to the manager's
    /// `cacheStoreFailureHandler`).
    func load(_ load: ImageLoadInfo, didStoreIn cache: ImageCacheType)
    /// The image the load made was stored as a variant
    /// (``ImageManager/Configuration/variantStorage``) under `variant`, `bytes` long as
    /// stored: `.disk` once handed to the disk cache, `.shared` once the shared tier took
    /// it. A variant copied from the tier to the disk, or not stored (an encode that
    /// failed, a response that may not be kept), reports nothing.
    func load(_ load: ImageLoadInfo, didStoreVariant variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType)
    /// The load failed with `error` (never `.cancelled`: that is ``loadDidCancel(_:)``).
    func load(_ load: ImageLoadInfo, didFail error: ImageLoadError)
    /// The load was cancelled before it completed.
    func loadDidCancel(_ load: ImageLoadInfo)
    /// The load's download failed with `error` because the network was not there, and the
    /// manager's `NetworkRecovery` now waits for it before trying again: told once per
    /// wait, before the wait begins, with the observer's `status` that decided it
    /// (`unreachable`). A failure that does not wait (another error, the network reachable,
    /// no recovery, the retries used up) is not told.
    func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus)
    /// The load's wait for the network ended: `networkBack` (the download is tried again),
    /// `timedOut` (the load fails with the error it had) or `cancelled`. Told once after
    /// each ``load(_:isWaitingForNetworkAfter:status:)``, before the download is tried
    /// again or the load is heard failed (a cancelled load may be heard cancelled first:
    /// its cancel reaches its subscriber before the run's wait ends).
    func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome)
}

/// The queue load monitors share when they do not choose one.
private let sharedLoadMonitorQueue = DispatchQueue(label: "webimage.load-monitors")

extension ImageLoadEventMonitor {
    public var delivery: CallbackDelivery { .queue(sharedLoadMonitorQueue) }
    public func loadDidStart(_ load: ImageLoadInfo) {}
    public func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource) {}
    public func load(_ load: ImageLoadInfo, didDecode size: PixelSize, frames: Int, duration: Duration) {}
    public func load(_ load: ImageLoadInfo, didTransformTo size: PixelSize, duration: Duration) {}
    public func load(_ load: ImageLoadInfo, didStoreIn cache: ImageCacheType) {}
    public func load(_ load: ImageLoadInfo, didStoreVariant variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType) {}
    public func load(_ load: ImageLoadInfo, didFail error: ImageLoadError) {}
    public func loadDidCancel(_ load: ImageLoadInfo) {}
    public func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus) {}
    public func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome) {}
}

/// Which load an event is about.
public struct ImageLoadInfo: Sendable, Hashable, CustomStringConvertible {
    /// Unique within the manager, in the order loads started.
    public let id: UInt64
    /// The request as the manager keyed it.
    public let request: ImageRequest

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { "load \(id) \(request.url.absoluteString)" }
}
