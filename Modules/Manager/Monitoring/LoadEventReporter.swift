import Foundation
import WebImageConcurrency
import WebImageCore

/// Tells a manager's load monitors about one load or run; with no monitor, each report
/// costs an atomic load and measures nothing.
struct LoadEventReporter: Sendable {
    let monitors: MonitorList<any ImageLoadEventMonitor>
    let load: ImageLoadInfo

    var isActive: Bool { !monitors.isEmpty }

    func started() {
        monitors.emit { [load] in $0.loadDidStart(load) }
    }

    /// How the load ended, from the result its subscriber got.
    func ended(_ result: Result<ImageResponse, ImageLoadError>) {
        guard isActive else { return }
        switch result {
        case .success(let response):
            // The source alone: a monitor on a queue must not keep the response (and the
            // memory budget's bytes it may carry) until it runs.
            let source = response.source
            monitors.emit { [load] in $0.load(load, didAnswerFrom: source) }
        case .failure(.cancelled): monitors.emit { [load] in $0.loadDidCancel(load) }
        case .failure(let error): monitors.emit { [load] in $0.load(load, didFail: error) }
        }
    }

    func decoded(_ image: DecodedImage, duration: Duration) {
        let (size, frames) = (image.size, image.frameCount)
        monitors.emit { [load] in $0.load(load, didDecode: size, frames: frames, duration: duration) }
    }

    func transformed(to image: DecodedImage, duration: Duration) {
        let size = image.size
        monitors.emit { [load] in $0.load(load, didTransformTo: size, duration: duration) }
    }

    func stored(in cache: ImageCacheType) {
        monitors.emit { [load] in $0.load(load, didStoreIn: cache) }
    }

    func waitingForNetwork(after error: DownloadError, status: NetworkReachabilityStatus) {
        monitors.emit { [load] in $0.load(load, isWaitingForNetworkAfter: error, status: status) }
    }

    func endedNetworkWait(_ outcome: NetworkRecovery.WaitOutcome) {
        monitors.emit { [load] in $0.load(load, didEndNetworkWait: outcome) }
    }

    func storedVariant(_ variant: ImageVariantKey, bytes: Int, in cache: ImageCacheType) {
        monitors.emit { [load] in $0.load(load, didStoreVariant: variant, bytes: bytes, in: cache) }
    }
}
