import Foundation
import WebImage

/// `fetch --wait-for-network`'s lines on standard error about loads waiting for the
/// network, from the manager's load events: one when a wait begins (with the failure and
/// the reachability status behind it), one when it ends.
struct NetworkWaitNotes: ImageLoadEventMonitor {
    func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus) {
        Console.note("waiting for the network to retry \(load.request.url.absoluteString) (\(error); network \(status))")
    }

    func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome) {
        Console.note("stopped waiting for the network for \(load.request.url.absoluteString): \(outcome)")
    }
}
