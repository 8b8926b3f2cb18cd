import CLibCurl
import Foundation
import WebImageCore

/// Turns libcurl's result codes into ``TransportError``s. Every code has a home: the
/// specific ones by name, the rest as `.other`; each keeps its code as a ``CurlError``.
///
/// Some codes cover several failures, told apart by what else is known: libcurl 7.88
/// reports a garbage, HTTP/0.9 or `HTTP/9.9` status line as `CURLE_UNSUPPORTED_PROTOCOL`
/// (a bad URL only before connecting), broken chunked encoding as `CURLE_RECV_ERROR`
/// with "chunked-encoding" in its detail (a reset otherwise), and a header line over its
/// 100 KB limit as `CURLE_OUT_OF_MEMORY` once connected. Each of those is a
/// ``TransportError/Code/malformedResponse``, as are an empty reply (`CURLE_GOT_NOTHING`)
/// and `CURLE_WEIRD_SERVER_REPLY`.
enum CurlErrorMapping {
    /// What else is known when a transfer fails, to tell apart failures one code covers.
    struct Context {
        var url: URL?
        /// libcurl's error buffer.
        var detail: String
        /// The connection was established (`CURLINFO_CONNECT_TIME_T` > 0 or reused).
        var connected: Bool
        /// OpenSSL's verification result (`CURLINFO_SSL_VERIFYRESULT`).
        var verifyResult: Int
        /// The head of the response, when one had arrived.
        var response: TransportResponse? = nil
        /// Body bytes received so far, when a response had begun.
        var bytesReceived: Int64? = nil
    }

    static func error(for code: CURLcode, _ context: Context) -> TransportError {
        let detail = context.detail.isEmpty ? String(cString: curl_easy_strerror(code)) : context.detail
        func make(_ kind: TransportError.Code, _ message: String? = nil, trust: ServerTrustError? = nil) -> TransportError {
            TransportError(
                kind, message ?? detail, url: context.url, response: context.response, bytesReceived: context.bytesReceived,
                trustFailure: trust, underlyingError: CurlError(code))
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Schemes are checked before libcurl sees a URL (redirects too): after
            // connecting, this is the status line.
            if context.connected || detail.contains("HTTP") {
                return make(.malformedResponse, "the status line is not HTTP/1.x or 2 (\(detail))")
            }
            return make(.invalidURL)
        case CURLE_URL_MALFORMAT:
            return make(.invalidURL)
        case CURLE_RECV_ERROR where detail.contains("chunked-encoding"):
            return make(.malformedResponse, "broken chunked encoding (\(detail))")
        case CURLE_GOT_NOTHING:
            return make(.malformedResponse, "an empty reply: the connection closed before any response byte (\(detail))")
        case CURLE_OUT_OF_MEMORY where context.connected:
            return make(.malformedResponse, "a response header line over libcurl's 100 KB limit (\(detail))")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return make(.dnsFailure)
        case CURLE_COULDNT_CONNECT:
            return make(.connectionRefused)
        case CURLE_OPERATION_TIMEDOUT:
            if !context.connected { return make(.connectTimeout) }
            if detail.contains("too slow") { return make(.stalled) }
            return make(.timedOut)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2_STREAM:
            return make(.connectionReset)
        case CURLE_PARTIAL_FILE:
            return make(.truncatedBody)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_RANGE_ERROR:
            return make(.malformedResponse)
        case CURLE_BAD_CONTENT_ENCODING:
            return make(.contentDecodingFailed)
        case CURLE_FILESIZE_EXCEEDED:
            return make(.bodyTooLarge)
        case CURLE_TOO_MANY_REDIRECTS:
            return make(.tooManyRedirects)
        case CURLE_ABORTED_BY_CALLBACK:
            return make(.cancelled)
        case CURLE_FILE_COULDNT_READ_FILE:
            return make(.fileNotFound)
        case CURLE_LOGIN_DENIED:
            return make(.authenticationFailed)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS:
            return make(.serverTrustFailed, trust: trustError(verifyResult: context.verifyResult, detail: detail, url: context.url))
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return make(.serverTrustFailed, trust: ServerTrustError(.pinMismatch, detail, host: context.url?.host))
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return make(.tlsFailure)
        default:
            return make(.other)
        }
    }

    /// Names OpenSSL's verification failure (X509_V_ERR_*).
    static func trustError(verifyResult: Int, detail: String, url: URL?) -> ServerTrustError {
        ServerTrustError(trustCode(verifyResult: verifyResult), detail, host: url?.host)
    }

    static func trustCode(verifyResult: Int) -> ServerTrustError.Code {
        switch verifyResult {
        case 9, 10, 11, 12:  // not yet valid, expired, CRL not yet valid / expired
            .expired
        case 62, 64:  // hostname mismatch, IP address mismatch
            .hostMismatch
        case 2, 18, 19, 20, 21, 27:  // unknown issuer, self-signed, untrusted
            .untrustedChain
        default:
            .validationFailed
        }
    }
}
