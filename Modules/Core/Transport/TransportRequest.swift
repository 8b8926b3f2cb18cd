import Foundation

/// One request for a transport: what to fetch and under which limits.
///
/// The defaults are what an image loader wants: `GET`, a 15 s limit on the whole transfer
/// (as SDWebImage and URLSession), redirects followed up to 10 times but never from HTTPS
/// down to HTTP, compressed responses accepted and decoded, no cookies, the proxy from the
/// environment, a 64 MiB limit on the body, and certificates validated.
public struct TransportRequest: Sendable {
    /// The methods an image loader needs.
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case head = "HEAD"
    }

    /// `http`, `https`, `file` or `data`.
    public var url: URL
    public var method: Method
    /// Sent as given, after the transport's defaults (`Accept`, `User-Agent`); a field
    /// named here replaces the default of the same name.
    public var headers: HTTPHeaderFields
    /// Turned into `If-None-Match` and `If-Modified-Since`; a `304` then completes the
    /// transfer as ``TransportResponse/isNotModified`` rather than as an error.
    public var validators: Validators?
    public var timeouts: Timeouts
    public var redirects: RedirectPolicy
    /// The largest body accepted, in bytes after decompression. A `Content-Length` over it
    /// fails the transfer before the body is read; a body growing past it is stopped.
    /// `nil` for no limit.
    public var maximumBodySize: Int64?
    /// Sends `Accept-Encoding` for every encoding libcurl can decode (gzip, deflate, and
    /// brotli and zstd when built in) and decodes the body. Progress counts the bytes as
    /// they arrive on the wire; the body delivered is decoded.
    public var acceptsCompressedResponses: Bool
    /// Cookies are neither sent nor stored unless this is `true` (or the transport's
    /// `TransportConfiguration.usesCookies` is); then they live in memory, in one jar per
    /// transport, shared by its requests that use cookies, and gone with the transport.
    public var usesCookies: Bool
    /// Accepts any server certificate: expired, self-signed, for another host. Skips the
    /// transport's trust policy for this request. Only for development servers.
    public var allowsInvalidCertificates: Bool
    public var proxy: Proxy
    /// A credential for this request alone, offered when the server answers 401 for the
    /// request's own origin, before any challenge handler is asked. It is never sent
    /// preemptively, never to another origin after a redirect, and never remembered for
    /// other requests (a server may fetch for many users through one transport). It
    /// answers the strongest offered scheme it can (``Credential/answers(_:)``): a
    /// password Digest, NTLM or Basic, ``Credential/kerberosTicketCache`` Negotiate.
    public var credential: Credential?
    /// HTTP/2 is negotiated over TLS (ALPN) unless this is `.http1_1`; plain-text HTTP is
    /// always HTTP/1.1.
    public var preferredHTTPVersion: PreferredHTTPVersion
    /// Which URLs and addresses this request may reach, replacing the transport's
    /// (`TransportConfiguration.urlPolicy`) for this request; `nil` uses the transport's.
    public var urlPolicy: URLPolicy?
    /// Decides about each redirect this request's transfer would follow (follow, rewrite,
    /// refuse), replacing the transport's (`TransportConfiguration.redirectHandler`);
    /// `nil` uses the transport's.
    public var redirectHandler: RedirectHandler?

    public init(
        url: URL,
        method: Method = .get,
        headers: HTTPHeaderFields = [:],
        validators: Validators? = nil,
        timeouts: Timeouts = .init(),
        redirects: RedirectPolicy = .init(),
        maximumBodySize: Int64? = 64 << 20,
        acceptsCompressedResponses: Bool = true,
        usesCookies: Bool = false,
        allowsInvalidCertificates: Bool = false,
        proxy: Proxy = .environment,
        preferredHTTPVersion: PreferredHTTPVersion = .http2,
        credential: Credential? = nil,
        urlPolicy: URLPolicy? = nil,
        redirectHandler: RedirectHandler? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.validators = validators
        self.timeouts = timeouts
        self.redirects = redirects
        self.maximumBodySize = maximumBodySize
        self.acceptsCompressedResponses = acceptsCompressedResponses
        self.usesCookies = usesCookies
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.proxy = proxy
        self.preferredHTTPVersion = preferredHTTPVersion
        self.credential = credential
        self.urlPolicy = urlPolicy
        self.redirectHandler = redirectHandler
    }
}

extension TransportRequest {
    /// The validators of an earlier response, for a conditional request.
    public struct Validators: Sendable, Hashable {
        /// Sent as `If-None-Match`.
        public var etag: String?
        /// Sent as `If-Modified-Since`, verbatim (an HTTP date).
        public var lastModified: String?

        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }

        /// The validators stored with a cached response.
        public init(_ metadata: CachedResponseMetadata) {
            self.init(etag: metadata.etag, lastModified: metadata.lastModified)
        }
    }

    /// Time limits. Each `nil` turns that limit off.
    public struct Timeouts: Sendable, Hashable {
        /// Name lookup, TCP connect and TLS handshake. Default 10 s.
        public var connect: Duration?
        /// The whole transfer, redirects and authentication round trips included, from
        /// the moment its request enters libcurl. Default 15 s.
        ///
        /// Waiting for a free connection (the host at its connection limit) is not taken
        /// from this budget: a request that waits this long without getting a connection
        /// fails with `.waitedForConnection` and is never sent, rather than being sent
        /// with a few milliseconds left. A later hop that waits spends the budget the
        /// first hop started. Time paused (``TransferTask/pause()``) is not taken from it
        /// either: the budget is extended by every paused interval. Checked about every
        /// 100 ms, so it fires up to 200 ms late.
        public var total: Duration?
        /// No byte received for this long fails the transfer, however long it has run.
        /// Every byte the connection receives counts (head, body, chunk framing; over
        /// HTTP/2 the stream's own bytes). The watch starts when a request goes out on
        /// its connection: getting the connection is ``connect``'s. Default 10 s; checked
        /// about every 100 ms, so it fires up to 200 ms late. A paused transfer does not
        /// stall: the timer starts afresh when it resumes.
        public var stall: Duration?

        public init(connect: Duration? = .seconds(10), total: Duration? = .seconds(15), stall: Duration? = .seconds(10)) {
            self.connect = connect
            self.total = total
            self.stall = stall
        }
    }

    /// How redirects are followed. The transport follows them itself, hop by hop, so each
    /// hop is checked against the trust policy of its own host and reported to the event
    /// monitors.
    public struct RedirectPolicy: Sendable, Hashable {
        /// Hops allowed before the transfer fails with `.tooManyRedirects`. `0` turns
        /// following off: the 3xx response is delivered as it is.
        public var maximum: Int
        /// Follows a redirect from `https` to `http`. Off by default: it would send the
        /// request, and what comes back, in clear text.
        public var allowsInsecureDowngrade: Bool

        public init(maximum: Int = 10, allowsInsecureDowngrade: Bool = false) {
            self.maximum = maximum
            self.allowsInsecureDowngrade = allowsInsecureDowngrade
        }
    }

    /// Where requests go through a proxy.
    public enum Proxy: Sendable, Hashable {
        /// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` from the environment,
        /// as libcurl reads them (the upper-case `HTTP_PROXY` is ignored, as by curl).
        case environment
        /// Never a proxy, whatever the environment says.
        case none
        /// This proxy (`http://host:port`, `socks5://host:port`, ...).
        case url(String)
    }

    public enum PreferredHTTPVersion: Sendable, Hashable {
        /// HTTP/2 when the server offers it over TLS, else HTTP/1.1.
        case http2
        /// HTTP/1.1 only.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        case http1_1
    }
}
