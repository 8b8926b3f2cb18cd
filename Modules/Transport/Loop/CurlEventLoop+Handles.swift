import CLibCurl
import CWebImageTransport
import Foundation
import WebImageCore

/// Easy handles: a hop gets one (its own from the last hop, a pooled one, or a fresh
/// one), configured for the hop, into the multi handle; and gives it back to the pool
/// when the transfer ends.
extension CurlEventLoop {
    /// Puts the admitted hop into libcurl; fails the transfer when libcurl will not take
    /// it.
    func addToMulti(_ state: TransferState, origin: String) {
        loopThread.assertOnLoop()
        let easy: UnsafeMutableRawPointer
        if let existing = state.easy {
            curl_easy_reset(existing)
            easy = existing
        } else if let pooled = idleHandles.popLast() {
            easy = pooled
        } else if let fresh = curl_easy_init() {
            easy = fresh
        } else {
            complete(state, .failure(TransportError(.other, "libcurl could not make a handle", url: state.url)))
            return
        }
        state.easy = easy
        state.resetForNextHop()
        let authentication = credentials.credential(for: state, origin: origin)
        if let error = EasyHandleSetup.configure(easy, for: state, authentication: authentication) {
            complete(state, .failure(error))
            return
        }
        if state.request.usesCookies || environment.configuration.usesCookies, let cookieShare {
            wi_easy_setopt_share(easy, cookieShare)
            wi_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "")
        } else {
            // curl_easy_reset keeps a handle's share, and with it the jar: a pooled handle
            // that served a transfer with cookies would send them with this one.
            wi_easy_setopt_share(easy, nil)
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            complete(state, .failure(TransportError(.other, "libcurl refused the transfer (CURLMcode \(added.rawValue))", url: state.url)))
            return
        }
    }

    /// libcurl reported the hop done: out of the multi handle, its slot given back.
    func removeFromMulti(_ state: TransferState) {
        guard slots.hopEnded(state) else { return }
        if let easy = state.easy { curl_multi_remove_handle(multi, easy) }
    }

    /// The transfer's handle back to the pool (or freed when the pool is full), its
    /// header list freed.
    func returnHandle(of state: TransferState) {
        if let easy = state.easy {
            curl_easy_reset(easy)
            if idleHandles.count < Self.idleHandleLimit { idleHandles.append(easy) } else { curl_easy_cleanup(easy) }
            state.easy = nil
        }
        if let list = state.headerList {
            curl_slist_free_all(list)
            state.headerList = nil
        }
    }
}
