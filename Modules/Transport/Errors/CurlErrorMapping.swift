import CLibCurl
import Foundation
import WebImageCore

/// Turns libcurl's result codes into ``TransportError``s. Every code has a home: the
/// specific ones by name, the rest as `.other` with the code kept.
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
    }

    static func error(for code: CURLcode, _ context: Context) -> TransportError {
        let detail = context.detail.isEmpty ? String(cString: curl_easy_strerror(code)) : context.detail
        func make(_ kind: TransportError.Code, trust: ServerTrustError? = nil) -> TransportError {
            TransportError(kind, detail, url: context.url, trustFailure: trust, curlCode: Int(code.rawValue))
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return make(.invalidURL)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return make(.dnsFailure)
        case CURLE_COULDNT_CONNECT:
            return make(.connectionRefused)
        case CURLE_OPERATION_TIMEDOUT:
            if !context.connected { return make(.connectTimeout) }
            if detail.contains("too slow") { return make(.stalled) }
            return make(.timedOut)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2_STREAM:
            return make(.connectionReset)
        case CURLE_PARTIAL_FILE:
            return make(.truncatedBody)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_RANGE_ERROR:
            return make(.badResponse)
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
        case 9, 10, 11, 12:          // not yet valid, expired, CRL not yet valid / expired
            .expired
        case 62, 64:                 // hostname mismatch, IP address mismatch
            .hostMismatch
        case 2, 18, 19, 20, 21, 27:  // unknown issuer, self-signed, untrusted
            .untrustedChain
        default:
            .validationFailed
        }
    }
}
