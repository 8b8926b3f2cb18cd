import Foundation
import Tracing
import WebImageCore
import WebImageManager

/// Traces the manager's loads through swift-distributed-tracing: a span per load, child
/// spans for its stages, and the caller's span as the parent.
///
/// - `image.load` (kind `internal`): from `loadImage` to the end; attributes
///   `webimage.load`, `webimage.url`, `webimage.source`; a failure is recorded on it with
///   status `error` and ``ImageLoadError/errorClass`` as the message; stores are events
///   (`stored.memory`, `stored.disk`, `stored.shared`); each wait for the network
///   (`NetworkRecovery`) is an event `network.waiting` when it began (attributes
///   `webimage.error`, the download's failure, and `webimage.network`, the reachability
///   status) and one `network.wait_ended` when it ended (attribute `webimage.outcome`:
///   `network back`, `timed out` or `cancelled`).
/// - `image.fetch`: for an answer from the network or a revalidation, from the start
///   until the decode began (cache lookups and the download).
/// - `image.decode`: the decode, with `webimage.width`, `webimage.height`,
///   `webimage.frames`.
/// - `image.transform`: the transformers.
///
/// The parent is the `ServiceContext` current where `loadImage` (or `image(for:)`) was
/// called: call it inside your request's span and the load's spans join its trace. The
/// spans are made when the load ends, with the stages' own start and end times.
///
/// ```swift
/// manager.addEventMonitor(TracingLoadMonitor())   // the bootstrapped tracer
/// try await withSpan("GET /avatar") { _ in try await manager.image(for: url) }
/// ```
public final class TracingLoadMonitor: ImageLoadRecordingMonitor {
    public let recorder: ImageLoadRecorder

    /// - Parameter tracer: where spans go; by default the one bootstrapped
    ///   (`InstrumentationSystem.tracer`).
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        // The caller's context is read where the load starts and travels in its record,
        // so the monitor keeps no state of its own between a load's start and its end.
        recorder = ImageLoadRecorder(
            startContext: { _ in ServiceContext.current },
            finished: { record in
                Self.emit(record, parent: record.startContext as? ServiceContext ?? .topLevel, tracer: tracer)
            })
    }

    /// The record as spans, each at its own times (continuous-clock instants turned into
    /// wall-clock ones against the present).
    static func emit(_ record: ImageLoadRecord, parent: ServiceContext, tracer: any Tracer) {
        let wallNow = DefaultTracerClock.now.nanosecondsSinceEpoch
        let now = ContinuousClock.now
        func wall(_ instant: ContinuousClock.Instant) -> DefaultTracerClock.Timestamp {
            let (seconds, attoseconds) = (now - instant).components
            let ago = UInt64(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
            return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: wallNow - min(ago, wallNow))
        }

        let load = start(tracer, "image.load", parent: parent, at: wall(record.startedAt))
        load.attributes["webimage.load"] = Int(record.load.id)
        load.attributes["webimage.url"] = record.load.request.url.absoluteString
        if let source = record.source { load.attributes["webimage.source"] = source.rawValue }
        let decodeStart = record.decode.map { $0.endedAt - $0.duration }
        if let source = record.source, source == .network || source == .revalidated {
            let fetch = start(tracer, "image.fetch", parent: load.context, at: wall(record.startedAt))
            fetch.end(at: wall(decodeStart ?? record.endedAt))
        }
        if let decode = record.decode, let decodeStart {
            let span = start(tracer, "image.decode", parent: load.context, at: wall(decodeStart))
            span.attributes["webimage.width"] = decode.size.width
            span.attributes["webimage.height"] = decode.size.height
            span.attributes["webimage.frames"] = decode.frames
            span.end(at: wall(decode.endedAt))
        }
        if let transform = record.transform {
            let span = start(tracer, "image.transform", parent: load.context, at: wall(transform.endedAt - transform.duration))
            span.end(at: wall(transform.endedAt))
        }
        for wait in record.networkWaits {
            load.addEvent(
                SpanEvent(
                    name: "network.waiting", at: wall(wait.startedAt),
                    attributes: ["webimage.error": "\(wait.error.description)", "webimage.network": "\(wait.status.description)"]))
            if let endedAt = wait.endedAt, let outcome = wait.outcome {
                load.addEvent(
                    SpanEvent(name: "network.wait_ended", at: wall(endedAt), attributes: ["webimage.outcome": "\(outcome.description)"]))
            }
        }
        for cache in record.stored {
            load.addEvent(SpanEvent(name: cache == .memory ? "stored.memory" : cache == .shared ? "stored.shared" : "stored.disk"))
        }
        if let error = record.error {
            load.recordError(error)
            load.setStatus(SpanStatus(code: .error, message: error.errorClass))
        }
        load.end(at: wall(record.endedAt))
    }

    /// Opens the tracer existential to start a span.
    private static func start<T: Tracer>(
        _ tracer: T, _ name: String, parent: ServiceContext, at instant: DefaultTracerClock.Timestamp
    ) -> any Span {
        tracer.startSpan(name, context: parent, ofKind: .internal, at: instant)
    }
}
