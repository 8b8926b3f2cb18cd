import WebImageCore

/// Settings shared by every transfer of one ``CurlTransport``.
public struct TransportConfiguration: Sendable {
    /// Sent unless a request sets its own. Names the library and libcurl.
    public var userAgent: String
    /// Sent unless a request sets its own: the formats the library decodes first.
    /// Default: ``defaultAccept``; the `WebImage` umbrella replaces that default with the
    /// formats its decoder registry holds (`ImageDecoderRegistry.acceptHeader`).
    public var accept: String
    /// Connections open at once to one host (as browsers and URLSession: 6). HTTP/2
    /// requests to a host share one connection regardless. Transfers over the limit
    /// wait in the transport, first started first served, and count that wait against
    /// their whole-transfer timeout: libcurl sees one transfer per HTTP/1.1 connection
    /// (100 per connection where HTTP/2 may multiplex), because the libcurl of Debian 12
    /// and its peers walks its own queue of waiting transfers on every completion.
    /// `0`: no limit.
    public var maximumConnectionsPerHost: Int
    /// Connections open at once in all; `0` for no limit.
    public var maximumTotalConnections: Int
    /// Idle connections kept for reuse.
    public var maximumIdleConnections: Int
    /// Sends concurrent HTTPS requests to one host as HTTP/2 streams on one connection
    /// (waiting for the first handshake to learn whether the server speaks HTTP/2).
    /// Defaults to ``defaultMultiplexesHTTP2``: on with libcurl 8.1 or later, off before
    /// (then each HTTP/2 transfer has a connection of its own, up to
    /// ``maximumConnectionsPerHost``).
    public var multiplexesHTTP2: Bool
    /// Decides which servers to trust, per host. `nil`: libcurl's own validation (system
    /// anchors and host name) for every host.
    public var trustPolicy: (any ServerTrustPolicy)?
    /// Answers 401 challenges and supplies client certificates. `nil`: a 401 fails the
    /// transfer with `TransportError.Code.httpStatus`.
    public var challengeHandler: (any AuthenticationChallengeHandling)?
    /// Told of every transfer's events, each where its `TransportEventMonitor.delivery`
    /// says (off the transport's thread unless it asks for `.immediate`). Monitors can also
    /// be added and removed while the transport runs: ``CurlTransport/addEventMonitor(_:delivery:)``.
    public var eventMonitors: [any TransportEventMonitor]
    /// The PEM file of the system's certificate authorities. `nil`: libcurl's configured
    /// bundle when it exists, else the first of the usual Linux locations.
    public var certificateAuthorityBundle: String?
    /// Which URLs and addresses transfers may reach, unless a request sets its own
    /// (`TransportRequest.urlPolicy`). The default, `URLPolicy.standard`, allows `http`
    /// and `https` to any host; `file:` and `data:` URLs need a policy that names them
    /// (`URLPolicy.unrestricted`). A server that fetches URLs its users give wants
    /// `URLPolicy.publicOnly`.
    public var urlPolicy: URLPolicy
    /// Host names answered without asking DNS, as curl's `--resolve`: each entry
    /// `HOST:PORT:ADDRESS` (`"images.example.com:443:203.0.113.7"`; an IPv6 address in
    /// brackets). For pinning a name to a known address, and for tests. The URL policy's
    /// address rules still judge the address connected to.
    public var resolvedHosts: [String]
    /// Decides about each redirect a transfer would follow, unless its request has its
    /// own (`TransportRequest.redirectHandler`): follow it, follow it elsewhere or with
    /// other headers, or refuse it (`TransportError.Code.redirectRefused`). Asked on the
    /// transport's thread after the redirect and URL policies have passed. `nil`: every
    /// redirect those policies allow is followed.
    public var redirectHandler: RedirectHandler?
    /// Every request of this transport sends and stores cookies, as if it set
    /// `TransportRequest.usesCookies` (which a request can also set alone). Off by
    /// default. The cookies live in memory, in one jar per transport (libcurl's cookie
    /// engine, shared by the transport's transfers), and go with it: another transport
    /// never sees them.
    public var usesCookies = false
    /// Over HTTP/2, the most body bytes a paused transfer keeps in memory (2 MiB). Such a
    /// transfer is not paused inside libcurl, which before 8.1 cannot hold an HTTP/2
    /// server back for one stream: its bytes keep arriving and wait here. Past this
    /// limit its stream is reset (other streams go on), and when resumed it asks for the
    /// rest with `Range` and `If-Range` (`TransportError.Code.cannotContinue` when the
    /// response gave no strong `ETag` for that). Over HTTP/1.1 libcurl pauses the
    /// transfer, and TCP's flow control holds the server back.
    public var pausedBodyLimit: Int = 2 << 20
    /// The most revocation answers (OCSP responses, revocation lists) the transport keeps
    /// from the fetches an evaluator's `OnlineRevocation` asks for (256). Each is kept
    /// until its `nextUpdate`; past this count the least recently used goes first.
    public var revocationCacheCapacity: Int = 256

    public init(
        userAgent: String = TransportConfiguration.defaultUserAgent,
        accept: String = TransportConfiguration.defaultAccept,
        maximumConnectionsPerHost: Int = 6,
        maximumTotalConnections: Int = 0,
        maximumIdleConnections: Int = 32,
        multiplexesHTTP2: Bool = TransportConfiguration.defaultMultiplexesHTTP2,
        trustPolicy: (any ServerTrustPolicy)? = nil,
        challengeHandler: (any AuthenticationChallengeHandling)? = nil,
        eventMonitors: [any TransportEventMonitor] = [],
        certificateAuthorityBundle: String? = nil,
        urlPolicy: URLPolicy = .standard,
        resolvedHosts: [String] = [],
        redirectHandler: RedirectHandler? = nil
    ) {
        self.userAgent = userAgent
        self.accept = accept
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumTotalConnections = maximumTotalConnections
        self.maximumIdleConnections = maximumIdleConnections
        self.multiplexesHTTP2 = multiplexesHTTP2
        self.trustPolicy = trustPolicy
        self.challengeHandler = challengeHandler
        self.eventMonitors = eventMonitors
        self.certificateAuthorityBundle = certificateAuthorityBundle
        self.urlPolicy = urlPolicy
        self.resolvedHosts = resolvedHosts
        self.redirectHandler = redirectHandler
    }

    /// Whether this process's libcurl multiplexes HTTP/2 safely: 8.1.0 or later. Before
    /// that (Debian 12 ships 7.88), streams sharing a connection can be left waiting for
    /// ever once a sibling ends: the frames libcurl had read for them are never handed
    /// on. Turning ``multiplexesHTTP2`` on there takes that risk.
    public static let defaultMultiplexesHTTP2 = CurlLibrary.multiplexesSafely

    /// The formats of the built-in decoders (PNG, JPEG, GIF), then any image, then
    /// anything.
    public static let defaultAccept = "image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5"

    public static let defaultUserAgent = "swift-web-image/0.1 libcurl/\(CurlLibrary.version)"
}
