import Foundation
import Logging
import WebImageCore
import WebImageManager

/// Logs the manager's loads through swift-log: one line per load when it ends, at
/// `debug` when answered or cancelled and at `warning` when failed, with the load's
/// facts as metadata; and a line at `info` each time a load starts waiting for the
/// network (`NetworkRecovery`), as it happens: `image load waiting for the network`, with
/// `webimage.load`, `webimage.url`, `webimage.error` (the download's failure) and
/// `webimage.network` (the reachability status).
///
/// ```swift
/// var logger = Logger(label: "images")
/// logger.logLevel = .debug
/// manager.addEventMonitor(LoggingLoadMonitor(logger: logger))
/// // debug: image load answered [webimage.source: network, webimage.ms: 41.2,
/// //        webimage.url: https://…, webimage.decode_ms: 5.1, webimage.pixels: 1920000, …]
/// ```
///
/// The metadata keys, each present when it applies: `webimage.load` (the load's number),
/// `webimage.url`, `webimage.ms` (start to end), `webimage.source`, `webimage.decode_ms`,
/// `webimage.width`, `webimage.height`, `webimage.pixels`, `webimage.frames`,
/// `webimage.transform_ms`, `webimage.stored` (`memory,disk`), `webimage.error` (its
/// description), `webimage.error_class` (``ImageLoadError/errorClass``) and
/// `webimage.network_waits` (how many times it waited for the network). Lines are
/// written off the load's thread, one at a time, in the order loads ended.
public final class LoggingLoadMonitor: ImageLoadRecordingMonitor {
    public let recorder: ImageLoadRecorder

    /// - Parameters:
    ///   - logger: where the lines go, with its level and its own metadata.
    ///   - answeredLevel: the level of answered and cancelled loads (`debug`).
    ///   - failedLevel: the level of failed loads (`warning`).
    ///   - waitingLevel: the level of a load's wait for the network (`info`).
    public init(
        logger: Logger, answeredLevel: Logger.Level = .debug, failedLevel: Logger.Level = .warning,
        waitingLevel: Logger.Level = .info
    ) {
        recorder = ImageLoadRecorder(
            waiting: { load, wait in
                logger.log(level: waitingLevel, "image load waiting for the network", metadata: Self.metadata(for: load, waiting: wait))
            },
            finished: { record in
                let level = record.error == nil ? answeredLevel : failedLevel
                logger.log(level: level, "\(Self.message(for: record))", metadata: Self.metadata(for: record))
            })
    }

    static func message(for record: ImageLoadRecord) -> String {
        switch record.outcome {
        case .answered: "image load answered"
        case .failed: "image load failed"
        case .cancelled: "image load cancelled"
        }
    }

    static func metadata(for load: ImageLoadInfo, waiting wait: ImageLoadRecord.NetworkWait) -> Logger.Metadata {
        [
            "webimage.load": "\(load.id)",
            "webimage.url": "\(load.request.url.absoluteString)",
            "webimage.error": "\(wait.error.description)",
            "webimage.network": "\(wait.status.description)",
        ]
    }

    static func metadata(for record: ImageLoadRecord) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "webimage.load": "\(record.load.id)",
            "webimage.url": "\(record.load.request.url.absoluteString)",
            "webimage.ms": "\(milliseconds(record.duration))",
        ]
        if let source = record.source { metadata["webimage.source"] = "\(source.rawValue)" }
        if let decode = record.decode {
            metadata["webimage.decode_ms"] = "\(milliseconds(decode.duration))"
            metadata["webimage.width"] = "\(decode.size.width)"
            metadata["webimage.height"] = "\(decode.size.height)"
            metadata["webimage.pixels"] = "\(decode.size.width * decode.size.height * decode.frames)"
            metadata["webimage.frames"] = "\(decode.frames)"
        }
        if let transform = record.transform { metadata["webimage.transform_ms"] = "\(milliseconds(transform.duration))" }
        if !record.networkWaits.isEmpty { metadata["webimage.network_waits"] = "\(record.networkWaits.count)" }
        if !record.stored.isEmpty { metadata["webimage.stored"] = "\(record.stored.map(cacheName).joined(separator: ","))" }
        if let error = record.error {
            metadata["webimage.error"] = "\(error.description)"
            metadata["webimage.error_class"] = "\(error.errorClass)"
        }
        return metadata
    }

    static func cacheName(_ cache: ImageCacheType) -> String {
        cache == .memory ? "memory" : cache == .disk ? "disk" : cache == .shared ? "shared" : "\(cache.rawValue)"
    }

    /// Milliseconds with one decimal.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return (milliseconds * 10).rounded() / 10
    }
}
