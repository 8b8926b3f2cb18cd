import CLibCurl
import CWebImageTransport
import Foundation
import WebImageConcurrency
import WebImageCore

/// Pausing and resuming one transfer (``TransferTask/pause()``): the lifecycle decides,
/// and the loop pauses the hop in libcurl, or keeps its bytes.
///
/// Over HTTP/1.1 libcurl's `curl_easy_pause` stops reading the hop's socket, so the
/// server's sending stalls in TCP's windows. Bytes that had arrived already are kept by
/// libcurl and handed to the write callback when the hop is unpaused, possibly from
/// inside `curl_easy_pause`. A chunk the write callback refused with
/// `CURL_WRITEFUNC_PAUSE` (a pause whose command was not taken yet) is kept the same way.
///
/// Where the hop may be an HTTP/2 stream, libcurl is not asked to pause it: libcurl
/// before 8.1 (Debian 12 ships 7.88) cannot hold the server back for one stream, and
/// keeps what arrives in a buffer of its own of up to 64 MiB (see
/// ``TransferState/holdsBodyWhilePaused``). The hop runs on and its body waits in the
/// transfer (``TransferState/heldBody``) up to ``TransportConfiguration/pausedBodyLimit``;
/// past that the hop is cut off, which resets only its stream, and the resumed transfer
/// asks for the rest (``PausedContinuation``). Either way every body byte is delivered
/// exactly once, in order.
extension CurlEventLoop {
    func pauseTransfer(_ state: TransferState) {
        guard let action = slots.pause(state, now: .now) else { return }
        switch action {
        case .outsideLibcurl:
            break
        case .pauseHop:
            guard !state.holdsBodyWhilePaused else { break }
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
        guard let action = slots.resume(state, now: .now) else { return }
        if !environment.monitors.isEmpty {
            let task = state.task
            environment.monitors.emit { $0.transferDidResume(task) }
        }
        if !state.heldBody.isEmpty {
            guard state.deliverHeldBody() else {
                complete(
                    state,
                    .failure(
                        state.task.isCancelled
                            ? state.error(.cancelled, "cancelled") : state.failure ?? state.error(.other, "the delegate refused the body")))
                return
            }
            if !state.heldBody.isEmpty {
                // Paused again from the delegate while the kept bytes went out: the rest
                // waits for the next resume.
                pauseTransfer(state)
                slots.holdIfPaused(state)
                return
            }
        }
        switch action {
        case .none:
            break
        case .startHop:
            if let parked = state.parked {
                state.parked = nil
                switch parked {
                case .success(let response): completeDelivered(state, response)
                case .failure(var error):
                    // Counted after the kept bytes went out.
                    error.bytesReceived = state.bodyBytes
                    complete(state, .failure(error))
                }
            } else {
                startHop(state)
            }
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

extension CurlEventLoop {
    /// A hop whose body waits in the transfer ended, or was cut off at the paused-body
    /// limit: the transfer stays paused, and the resume delivers the kept body, then
    /// completes it or asks for the rest. Whether it was.
    func holdEndedHop(_ state: TransferState, outcome: HopOutcome) -> Bool {
        if state.letGoWhilePaused {
            state.letGoWhilePaused = false
            switch state.planContinuation() {
            case .success(let continuation): state.continuation = continuation
            case .failure(let refusal): state.parked = .failure(state.error(.cannotContinue, refusal.message))
            }
        } else if !state.heldBody.isEmpty, case .head(let response) = outcome, case .deliver(let head) = state.disposition(of: response) {
            credentials.remember(state, origin: Self.origin(of: state))
            state.parked = .success(head)
        } else {
            return false
        }
        // The pause command may not have been taken yet (the task said paused first).
        if !state.lifecycle.isPaused { pauseTransfer(state) }
        slots.holdIfPaused(state)
        return true
    }
}
