import Foundation
import Metrics
import WebImageCore
import WebImageManager

/// Counts and times the manager's loads through swift-metrics.
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `webimage_loads_total` | counter, per answered load | `source` (memory, disk, shared, network, revalidated, stale) |
/// | `webimage_load_failures_total` | counter | `error_class` (``ImageLoadError/errorClass``) |
/// | `webimage_loads_cancelled_total` | counter | |
/// | `webimage_load_duration` | timer, `loadImage` to the answer | `source` |
/// | `webimage_decode_duration` | timer | |
/// | `webimage_transform_duration` | timer | |
/// | `webimage_decoded_pixels_total` | counter (width x height x frames) | |
/// | `webimage_network_waits_total` | counter, per wait for the network (`NetworkRecovery`), counted when its load ends | `outcome` (network_back, timed_out, cancelled) |
///
/// Dimensions take few values (never a URL), as metrics backends need. Queue depth, the
/// memory budget and cache sizes are gauges: see ``ImageLoadGauges``.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(...))   // once, at start
/// manager.addEventMonitor(MetricsLoadMonitor())
/// ```
public final class MetricsLoadMonitor: ImageLoadRecordingMonitor {
    public let recorder: ImageLoadRecorder

    /// - Parameter factory: the metrics backend; by default the one bootstrapped.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        let cancelled = Counter(label: "webimage_loads_cancelled_total", factory: factory)
        let decodeDuration = Timer(label: "webimage_decode_duration", factory: factory)
        let transformDuration = Timer(label: "webimage_transform_duration", factory: factory)
        let pixels = Counter(label: "webimage_decoded_pixels_total", factory: factory)
        recorder = ImageLoadRecorder { record in
            if let decode = record.decode {
                decodeDuration.recordNanoseconds(Self.nanoseconds(decode.duration))
                pixels.increment(by: decode.size.width * decode.size.height * decode.frames)
            }
            if let transform = record.transform { transformDuration.recordNanoseconds(Self.nanoseconds(transform.duration)) }
            for wait in record.networkWaits {
                Counter(label: "webimage_network_waits_total", dimensions: [("outcome", Self.name(wait.outcome))], factory: factory)
                    .increment()
            }
            switch record.outcome {
            case .answered(let source):
                let dimensions = [("source", source.rawValue)]
                Counter(label: "webimage_loads_total", dimensions: dimensions, factory: factory).increment()
                Timer(label: "webimage_load_duration", dimensions: dimensions, factory: factory)
                    .recordNanoseconds(Self.nanoseconds(record.duration))
            case .failed(let error):
                Counter(label: "webimage_load_failures_total", dimensions: [("error_class", error.errorClass)], factory: factory)
                    .increment()
            case .cancelled:
                cancelled.increment()
            }
        }
    }

    /// A wait's outcome as a dimension value; a wait its load outlived unheard of (the
    /// load ended while the monitor was being added) counts as cancelled.
    static func name(_ outcome: NetworkRecovery.WaitOutcome?) -> String {
        switch outcome {
        case .networkBack: "network_back"
        case .timedOut: "timed_out"
        case .cancelled, nil: "cancelled"
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
