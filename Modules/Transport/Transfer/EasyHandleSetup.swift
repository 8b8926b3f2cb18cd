import CLibCurl
import CWebImageTransport
import Foundation
import WebImageCore

/// Sets every option of an easy handle for the current hop of a transfer. The handle is
/// reset before each hop, so each hop starts from libcurl's defaults and nothing of an
/// earlier hop (credentials, headers, trust hook) leaks into it.
enum EasyHandleSetup {
    /// Sets the options; returns an error for a request that cannot start.
    static func configure(
        _ easy: UnsafeMutableRawPointer, for state: TransferState, authentication: (ProtectionSpace, Credential)?
    ) -> TransportError? {
        let request = state.request
        let url = state.url
        let scheme = state.scheme
        let context = Unmanaged.passUnretained(state).toOpaque()
        let environment = state.environment

        wi_easy_setopt_write_function(easy, CurlCallbacks.write)
        wi_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        wi_easy_setopt_header_function(easy, CurlCallbacks.header)
        // Counts every byte the connection receives, for the stall timer.
        wi_easy_track_sockets(easy)
        // The stall timer starts once the hop has its connection (``Timeouts/connect``
        // covers getting one).
        _ = CurlCallbacks.requestReadyRegistered
        wi_easy_setopt_request_ready(easy, context)
        wi_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        wi_easy_setopt_pointer(easy, CURLOPT_PRIVATE, context)
        wi_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, state.errorBuffer)
        wi_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        wi_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        // Only the scheme of this hop: a URL cannot talk libcurl into ftp, ldap, ...
        setString(easy, CURLOPT_PROTOCOLS_STR, scheme)
        guard setString(easy, CURLOPT_URL, url.absoluteString) == CURLE_OK else {
            return TransportError(.invalidURL, "libcurl refused the URL", url: url)
        }
        if request.method == .head { wi_easy_setopt_long(easy, CURLOPT_NOBODY, 1) }

        if let limit = request.maximumBodySize {
            wi_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        setTimeouts(easy, request.timeouts)

        guard scheme == "http" || scheme == "https" else { return nil }

        if let resolve = environment.resolveList { wi_easy_setopt_pointer(easy, CURLOPT_RESOLVE, UnsafeMutableRawPointer(resolve)) }
        if state.policy.checksAddresses {
            _ = CurlCallbacks.addressCheckRegistered
            wi_easy_install_address_check(easy, context)
        }

        // NTLM authenticates the connection its three messages go over: HTTP/1.1 only
        // (an HTTP/2 server answers it with HTTP_1_1_REQUIRED at best).
        let http1Only = request.preferredHTTPVersion == .http1_1 || authentication?.0.method == .ntlm
        wi_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(http1Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS))
        if scheme == "https", environment.configuration.multiplexesHTTP2 { wi_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1) }
        if request.acceptsCompressedResponses { setString(easy, CURLOPT_ACCEPT_ENCODING, "") }
        switch request.proxy {
        case .environment: break
        case .none: setString(easy, CURLOPT_PROXY, "")
        case .url(let proxy): setString(easy, CURLOPT_PROXY, proxy)
        }

        if let old = state.headerList { curl_slist_free_all(old) }
        state.headerList = nil
        if state.headers.isEmpty, request.validators == nil, state.continuation == nil {
            wi_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, state.environment.defaultHeaderList.map { UnsafeMutableRawPointer($0) })
        } else {
            state.headerList = headerList(for: state, configuration: environment.configuration)
            wi_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, state.headerList.map { UnsafeMutableRawPointer($0) })
        }

        if let (space, credential) = authentication, let scheme = curlScheme(space.method) {
            // One scheme, not a set: libcurl then answers with it at once (NTLM's first
            // message, Basic's header) and runs the scheme's own round trips inside the
            // hop, on one connection. Negotiate reads the ticket cache; its empty user
            // is still needed, as `curl -u : --negotiate`, for libcurl to authenticate.
            wi_easy_setopt_long(easy, CURLOPT_HTTPAUTH, scheme)
            setString(easy, CURLOPT_USERNAME, credential.user)
            setString(easy, CURLOPT_PASSWORD, credential.password)
        }

        if scheme == "https" {
            if let error = configureTLS(easy, for: state, context: context) { return error }
        }
        return nil
    }

    /// libcurl's bit for a scheme it implements.
    private static func curlScheme(_ method: AuthenticationMethod) -> Int? {
        switch method {
        case .basic: WI_CURLAUTH_BASIC
        case .digest: WI_CURLAUTH_DIGEST
        case .ntlm: WI_CURLAUTH_NTLM
        case .negotiate: WI_CURLAUTH_NEGOTIATE
        case .other: nil
        }
    }

    private static func setTimeouts(_ easy: UnsafeMutableRawPointer, _ timeouts: TransportRequest.Timeouts) {
        if let connect = timeouts.connect {
            wi_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(connect.milliseconds)))
        }
        // The whole-transfer budget and the stall timeout are the event loop's own (see
        // CurlEventLoop.checkTimers), not CURLOPT_TIMEOUT_MS and the low-speed limit:
        // libcurl's timeout keeps running while a transfer is paused, and a paused
        // transfer's time must not count; its low-speed limit averages over about five
        // seconds, so it would notice a stall seconds late.
    }

    private static func headerList(for state: TransferState, configuration: TransportConfiguration) -> UnsafeMutablePointer<curl_slist>? {
        var headers = state.headers
        if !state.authentication.sendsAuthorizationHeader { headers.remove("Authorization") }
        if !headers.contains("Accept") { headers.add("Accept", configuration.accept) }
        if !headers.contains("User-Agent") { headers.add("User-Agent", configuration.userAgent) }
        if let validators = state.request.validators {
            if let etag = validators.etag, !headers.contains("If-None-Match") { headers.add("If-None-Match", etag) }
            if let date = validators.lastModified, !headers.contains("If-Modified-Since") { headers.add("If-Modified-Since", date) }
        }
        if let continuation = state.continuation {
            for (name, value) in continuation.headers { headers.set(name, value) }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, HTTPHeaderLine.line(name, value)) }
        return list
    }

    private static func configureTLS(_ easy: UnsafeMutableRawPointer, for state: TransferState, context: UnsafeMutableRawPointer)
        -> TransportError?
    {
        let environment = state.environment
        if let bundle = environment.systemBundle { setString(easy, CURLOPT_CAINFO, bundle) }
        let host = state.url.host ?? ""
        if let identity = environment.configuration.challengeHandler?.clientIdentity(
            forHost: host, port: RedirectPlanner.effectivePort(state.url) ?? 443)
        {
            setBlob(easy, CURLOPT_SSLCERT_BLOB, identity.certificateChainPEM)
            setBlob(easy, CURLOPT_SSLKEY_BLOB, identity.privateKeyPEM)
            setString(easy, CURLOPT_SSLCERTTYPE, "PEM")
            setString(easy, CURLOPT_SSLKEYTYPE, "PEM")
            if let passphrase = identity.passphrase { setString(easy, CURLOPT_KEYPASSWD, passphrase) }
        }
        if state.request.allowsInvalidCertificates {
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0)
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0)
            return nil
        }
        if let policy = environment.configuration.trustPolicy {
            do {
                state.evaluator = try policy.evaluator(forHost: host)
            } catch {
                return TransportError(.serverTrustFailed, error.message, url: state.url, trustFailure: error)
            }
        }
        if let evaluator = state.evaluator {
            _ = CurlCallbacks.trustHookRegistered
            // The evaluator checks the chain and the host name itself, inside the handshake.
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0)
            if let revocation = evaluator.revocationRequirements {
                // A resumed session skips certificate verification and the status callback:
                // every connection of an evaluator that checks revocation is a full handshake.
                wi_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0)
                if revocation.requestsStapledOCSPResponse {
                    state.awaitsStatusEvaluation = true
                    wi_easy_install_stapling_trust_hook(easy, context)
                } else {
                    wi_easy_install_trust_hook(easy, context)
                }
            } else {
                wi_easy_install_trust_hook(easy, context)
            }
        } else {
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
            wi_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        }
        return nil
    }

    /// A string option, passed without the array copy an implicit String-to-pointer
    /// conversion makes (a native String already ends in NUL). libcurl copies it.
    @discardableResult
    private static func setString(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
        value.withCString { wi_easy_setopt_string(easy, option, $0) }
    }

    private static func setBlob(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ text: String) {
        var bytes = Array(text.utf8)
        wi_easy_setopt_blob(easy, option, &bytes, bytes.count)
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
