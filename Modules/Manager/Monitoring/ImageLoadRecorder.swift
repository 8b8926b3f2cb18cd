import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// A load monitor that gathers each load's events into one ``ImageLoadRecord`` and hands
/// it over when the load ends: the building block of the logging, metrics and tracing
/// adapters (swift-web-image-integrations), and of any monitor that wants one record per
/// load rather than a stream of events.
///
/// It takes the events where they happen (``delivery`` is `.immediate`), so each time is
/// the event's own, and hands the records over on `recordDelivery`. Decoding,
/// transforming and storing belong to a run that loads of one variant share; they are
/// recorded for the load that started the run, as the events name it.
///
/// ```swift
/// let recorder = ImageLoadRecorder { record in
///     print(record.load.request.url, record.source ?? "failed", record.duration)
/// }
/// manager.addEventMonitor(recorder)
/// ```
public final class ImageLoadRecorder: ImageLoadEventMonitor {
    private let open = Locked<[UInt64: ImageLoadRecord]>([:])
    private let recordDelivery: CallbackDelivery
    private let finished: @Sendable (ImageLoadRecord) -> Void
    /// Asked at once when a load starts, on the thread that started it (inside
    /// `loadImage`, where the caller's task-local values are still readable); what it
    /// returns travels in the load's record.
    private let startContext: (@Sendable (ImageLoadInfo) -> (any Sendable)?)?
    /// Told on `recordDelivery` when a load starts waiting for the network.
    private let waiting: (@Sendable (ImageLoadInfo, ImageLoadRecord.NetworkWait) -> Void)?

    /// - Parameters:
    ///   - recordDelivery: where `finished` runs; by default a serial queue of its own,
    ///     so records arrive one at a time, in the order loads ended.
    ///   - startContext: called when a load starts, where it starts (keep it quick):
    ///     what the load's record needs from its caller, such as a task-local value, kept
    ///     as the record's ``ImageLoadRecord/startContext``.
    ///   - waiting: called on `recordDelivery` each time a load starts waiting for the
    ///     network, with the wait as it begins (for a line as it happens; the record
    ///     keeps every wait and how it ended).
    ///   - finished: called once per load with its record.
    public init(
        recordDelivery: CallbackDelivery = .queue(DispatchQueue(label: "webimage.load-records")),
        startContext: (@Sendable (ImageLoadInfo) -> (any Sendable)?)? = nil,
        waiting: (@Sendable (ImageLoadInfo, ImageLoadRecord.NetworkWait) -> Void)? = nil,
        finished: @escaping @Sendable (ImageLoadRecord) -> Void
    ) {
        self.recordDelivery = recordDelivery
        self.startContext = startContext
        self.waiting = waiting
        self.finished = finished
    }

    public var delivery: CallbackDelivery { .immediate }

    public func loadDidStart(_ load: ImageLoadInfo) {
        let now = ContinuousClock.now
        var record = ImageLoadRecord(load: load, startedAt: now, endedAt: now, outcome: .cancelled, stored: [])
        record.startContext = startContext?(load)
        open.withLock { $0[load.id] = record }
    }

    public func load(_ load: ImageLoadInfo, didDecode size: PixelSize, frames: Int, duration: Duration) {
        let now = ContinuousClock.now
        update(load) { $0.decode = .init(size: size, frames: frames, duration: duration, endedAt: now) }
    }

    public func load(_ load: ImageLoadInfo, didTransformTo size: PixelSize, duration: Duration) {
        let now = ContinuousClock.now
        update(load) { $0.transform = .init(size: size, duration: duration, endedAt: now) }
    }

    public func load(_ load: ImageLoadInfo, didStoreIn cache: ImageCacheType) {
        update(load) { $0.stored.append(cache) }
    }

    public func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus) {
        let wait = ImageLoadRecord.NetworkWait(error: error, status: status, startedAt: ContinuousClock.now)
        update(load) { $0.networkWaits.append(wait) }
        if let waiting { recordDelivery.run { waiting(load, wait) } }
    }

    public func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome) {
        let now = ContinuousClock.now
        update(load) { record in
            guard let last = record.networkWaits.indices.last, record.networkWaits[last].outcome == nil else { return }
            record.networkWaits[last].endedAt = now
            record.networkWaits[last].outcome = outcome
        }
    }

    public func load(_ load: ImageLoadInfo, didStoreVariant variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType) {
        update(load) { $0.storedVariants.append(cache) }
    }

    public func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource) { end(load, .answered(source)) }
    public func load(_ load: ImageLoadInfo, didFail error: ImageLoadError) { end(load, .failed(error)) }
    public func loadDidCancel(_ load: ImageLoadInfo) { end(load, .cancelled) }

    /// Returns once the record of every load that ended before this call has been handed
    /// to `finished` (with the default delivery, a serial queue: everything queued before
    /// has run). For a shutdown that must not lose the last records, and for tests.
    /// Without a queue (`.immediate`) it returns at once.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recordDelivery.run { continuation.resume() }
        }
    }

    /// Loads started and not ended yet.
    public var openLoads: Int { open.withLock { $0.count } }

    private func update(_ load: ImageLoadInfo, _ change: (inout ImageLoadRecord) -> Void) {
        open.withLock { records in
            if records[load.id] != nil { change(&records[load.id]!) }
        }
    }

    private func end(_ load: ImageLoadInfo, _ outcome: ImageLoadRecord.Outcome) {
        let now = ContinuousClock.now
        // A monitor added while a load ran never saw it start: its record starts here.
        var record =
            open.withLock { $0.removeValue(forKey: load.id) }
            ?? ImageLoadRecord(load: load, startedAt: now, endedAt: now, outcome: outcome, stored: [])
        record.endedAt = now
        record.outcome = outcome
        let (finished, ended) = (self.finished, record)
        recordDelivery.run { finished(ended) }
    }
}

/// A load monitor made of an ``ImageLoadRecorder``: conform, give the recorder, and every
/// event goes to it (on its `.immediate` delivery). What the logging, metrics and tracing
/// adapters are; a monitor of your own that writes one record per load can be one too.
public protocol ImageLoadRecordingMonitor: ImageLoadEventMonitor {
    /// Gathers the events and hands over one record per load.
    var recorder: ImageLoadRecorder { get }
}

extension ImageLoadRecordingMonitor {
    public var delivery: CallbackDelivery { recorder.delivery }
    public func loadDidStart(_ load: ImageLoadInfo) { recorder.loadDidStart(load) }
    public func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource) { recorder.load(load, didAnswerFrom: source) }
    public func load(_ load: ImageLoadInfo, didDecode size: PixelSize, frames: Int, duration: Duration) {
        recorder.load(load, didDecode: size, frames: frames, duration: duration)
    }
    public func load(_ load: ImageLoadInfo, didTransformTo size: PixelSize, duration: Duration) {
        recorder.load(load, didTransformTo: size, duration: duration)
    }
    public func load(_ load: ImageLoadInfo, didStoreIn cache: ImageCacheType) { recorder.load(load, didStoreIn: cache) }
    public func load(_ load: ImageLoadInfo, didStoreVariant variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType) {
        recorder.load(load, didStoreVariant: variant, bytes: bytes, in: cache)
    }
    public func load(_ load: ImageLoadInfo, didFail error: ImageLoadError) { recorder.load(load, didFail: error) }
    public func loadDidCancel(_ load: ImageLoadInfo) { recorder.loadDidCancel(load) }
    public func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus) {
        recorder.load(load, isWaitingForNetworkAfter: error, status: status)
    }
    public func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome) {
        recorder.load(load, didEndNetworkWait: outcome)
    }

    /// Returns once every load that ended before this call has been handed over.
    public func flush() async { await recorder.flush() }
}
