import CLibCurl
import CWebImageTransport
import Foundation
import WebImageConcurrency
import WebImageCore

/// Pausing and resuming one transfer (``TransferTask/pause()``): the lifecycle decides,
/// libcurl's `curl_easy_pause` does it for a hop in the multi handle.
///
/// What libcurl does with a paused hop: it stops reading the hop's socket over
/// HTTP/1.1, so the server's sending stalls in TCP's windows; over HTTP/2 it closes the
/// stream's flow-control window, so the connection's other streams go on. Bytes that had
/// arrived already are kept by libcurl and handed to the write callback when the hop is
/// unpaused, possibly from inside `curl_easy_pause`. A chunk the write callback refused
/// with `CURL_WRITEFUNC_PAUSE` (a pause whose command was not taken yet) is kept the same
/// way. So every body byte is delivered exactly once, in order.
extension CurlEventLoop {
    func pauseTransfer(_ state: TransferState) {
        guard let action = state.lifecycle.pause(now: .now) else { return }
        switch action {
        case .none:
            break
        case .withdraw(let slot):
            admission.withdraw(state, from: slot)
        case .pauseHop:
            // libcurl 7.88 refuses (CURLE_BAD_FUNCTION_ARGUMENT) to pause a hop that has
            // no connection yet. Nothing is lost: its first body chunk is refused with
            // CURL_WRITEFUNC_PAUSE (the task says paused), which pauses it then.
            if let easy = state.easy { curl_easy_pause(easy, CURLPAUSE_ALL) }
        }
        if !environment.monitors.isEmpty {
            let task = state.task
            environment.monitors.emit { $0.transferDidPause(task) }
        }
    }

    func resumeTransfer(_ state: TransferState) {
        guard let action = state.lifecycle.resume(activity: state.activity, now: .now) else { return }
        if !environment.monitors.isEmpty {
            let task = state.task
            environment.monitors.emit { $0.transferDidResume(task) }
        }
        switch action {
        case .none:
            break
        case .startHop:
            startHop(state)
        case .resumeHop:
            guard let easy = state.easy else { return }
            // The write callback may run from inside this call, delivering what libcurl
            // kept while the hop was paused: on this thread, outside curl_multi_perform,
            // which the callbacks allow. A callback that refused its bytes (cancelled,
            // over the body limit) makes the call fail: the transfer ends with its reason.
            let code = curl_easy_pause(easy, CURLPAUSE_CONT)
            // Refused for a hop without a connection: it was never paused in libcurl.
            guard code != CURLE_OK, code != CURLE_BAD_FUNCTION_ARGUMENT else { return }
            let failure =
                state.task.isCancelled
                ? state.error(.cancelled, "cancelled")
                : state.failure ?? state.error(.other, "libcurl could not resume the transfer (CURLcode \(code.rawValue))")
            complete(state, .failure(failure))
        }
    }
}
