import CLibCurl
import CWebImageTransport
import Foundation
import WebImageCore

/// How a hop libcurl reported done ended, read from its easy handle and its transfer:
/// a failure named for what happened, or the head that decides what comes next. Reads
/// the hop's metrics into the transfer first. Loop thread only.
enum HopOutcome {
    case failed(TransportError)
    case head(TransportResponse)
    /// The handshake ended for want of a revocation answer the transport is to fetch.
    case revocationPending(RevocationFetchPlan)

    static func read(_ state: TransferState, _ easy: UnsafeMutableRawPointer, _ code: CURLcode) -> HopOutcome {
        let response = state.currentResponse()
        state.transactions.append(
            TransactionMetricsReader.read(
                easy, url: state.url, statusCode: response?.statusCode, httpVersion: response?.httpVersion))
        if state.task.isCancelled {
            return .failed(state.error(.cancelled, "cancelled"))
        }
        if let failure = state.failure {
            return .failed(failure)
        }
        if let fetch = state.revocationFetch {
            return .revocationPending(fetch)
        }
        if let trustFailure = state.trustFailure {
            return .failed(
                TransportError(
                    .serverTrustFailed, trustFailure.message, url: state.url, trustFailure: trustFailure, underlyingError: CurlError(code)))
        }
        // A dropped body cut off at the discard limit ends in libcurl's write error; the
        // head still says what happened.
        let cutOff = code == CURLE_WRITE_ERROR && state.reception == .cutOff
        if code != CURLE_OK, !cutOff {
            // Every address the host resolved to was refused, or the reused connection was.
            if let violation = state.policyViolation { return .failed(state.refusal(violation)) }
            var connectTime: curl_off_t = 0
            wi_easy_getinfo_off(easy, CURLINFO_CONNECT_TIME_T, &connectTime)
            var verifyResult = 0
            wi_easy_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &verifyResult)
            let connected = connectTime > 0 || state.transactions.last?.reusedConnection == true || response != nil
            let head = state.delivered ?? response
            return .failed(
                CurlErrorMapping.error(
                    for: code,
                    .init(
                        url: state.url, detail: state.errorDetail, connected: connected, verifyResult: verifyResult,
                        response: head, bytesReceived: head == nil ? nil : state.bodyBytes)))
        }
        guard let response else {
            return .failed(TransportError(.malformedResponse, "no response head", url: state.url))
        }
        return .head(response)
    }
}
