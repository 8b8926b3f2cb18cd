/// Where a credential applies: one realm of one origin, for one scheme.
public struct ProtectionSpace: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    public var host: String
    public var port: Int
    /// The `realm` parameter of the challenge, when it had one.
    public var realm: String?
    public var method: AuthenticationMethod

    public init(scheme: String, host: String, port: Int, realm: String?, method: AuthenticationMethod) {
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.realm = realm
        self.method = method
    }

    public var description: String {
        "\(method) \(scheme)://\(host):\(port)" + (realm.map { " realm \"\($0)\"" } ?? "")
    }
}

/// An HTTP authentication scheme, from `WWW-Authenticate`.
///
/// The transport answers Basic, Digest, NTLM and Negotiate with libcurl's own
/// implementations; a handler answers a challenge with a ``Credential`` whose
/// ``Credential/source`` fits the scheme (``Credential/answers(_:)``).
public enum AuthenticationMethod: Sendable, Hashable, CustomStringConvertible {
    case basic
    case digest
    /// NTLM: a password proven in a three-message handshake (negotiate, challenge,
    /// authenticate) that authenticates the connection rather than the request. The
    /// transport runs it on one HTTP/1.1 keep-alive connection, never on HTTP/2.
    case ntlm
    /// Negotiate (SPNEGO, RFC 4559): Kerberos through GSS-API, with the tickets of a
    /// credential cache instead of a password (``Credential/kerberosTicketCache``).
    case negotiate
    /// A scheme the transport cannot answer (Bearer, ...).
    case other(String)

    public init(scheme: String) {
        switch scheme.lowercased() {
        case "basic": self = .basic
        case "digest": self = .digest
        case "ntlm": self = .ntlm
        case "negotiate": self = .negotiate
        default: self = .other(scheme)
        }
    }

    public var description: String {
        switch self {
        case .basic: "Basic"
        case .digest: "Digest"
        case .ntlm: "NTLM"
        case .negotiate: "Negotiate"
        case .other(let name): name
        }
    }
}

/// What answers a challenge: a user name and password (Basic, Digest, NTLM), or the
/// Kerberos tickets the process already holds (Negotiate).
///
/// ```swift
/// let password = Credential(user: "reader", password: "secret")  // Basic, Digest, NTLM
/// let kerberos = Credential.kerberosTicketCache                  // Negotiate, after kinit
/// ```
public struct Credential: Sendable, Hashable {
    /// Where the secret of a credential is.
    public enum Source: Sendable, Hashable {
        /// ``Credential/user`` and ``Credential/password``. For NTLM the user may be
        /// written `DOMAIN\user`.
        case password
        /// The Kerberos tickets of the default credential cache of the process: the one
        /// `KRB5CCNAME` names, else the system's default (what `kinit` fills and `klist`
        /// shows), read by GSS-API when the transfer runs. No password is held or sent;
        /// the service ticket asked for is `HTTP@<host of the URL>`.
        case kerberosTicketCache
    }

    public var source: Source
    /// The user name; empty for ``Source/kerberosTicketCache`` (the ticket names the user).
    public var user: String
    /// The password; empty for ``Source/kerberosTicketCache``.
    public var password: String

    /// A user name and password.
    public init(user: String, password: String) {
        self.source = .password
        self.user = user
        self.password = password
    }

    private init(source: Source) {
        self.source = source
        self.user = ""
        self.password = ""
    }

    /// "Answer Negotiate with my Kerberos tickets": the default credential cache of the
    /// process (see ``Source/kerberosTicketCache``). Without a valid ticket there, the
    /// server's 401 stands and the transfer fails with it.
    public static let kerberosTicketCache = Credential(source: .kerberosTicketCache)

    /// Whether this credential can answer `method`: a password answers Basic, Digest
    /// and NTLM; the ticket cache answers Negotiate; nothing answers another scheme.
    public func answers(_ method: AuthenticationMethod) -> Bool {
        switch (source, method) {
        case (.password, .basic), (.password, .digest), (.password, .ntlm): true
        case (.kerberosTicketCache, .negotiate): true
        default: false
        }
    }
}

/// A server asked for authentication (a 401 with `WWW-Authenticate`).
public struct AuthenticationChallenge: Sendable {
    public var protectionSpace: ProtectionSpace
    /// How many credentials this transfer has already had refused for this space:
    /// 0 the first time. A handler should stop offering the same credential after a
    /// failure (the transport stops asking after ``maximumAttempts``).
    public var previousFailureCount: Int
    /// The 401 response.
    public var failureResponse: TransportResponse
    /// The credential that was refused, when one was.
    public var proposedCredential: Credential?

    /// Challenges answered per transfer before it fails, whatever the handler says.
    public static let maximumAttempts = 3

    public init(
        protectionSpace: ProtectionSpace, previousFailureCount: Int, failureResponse: TransportResponse, proposedCredential: Credential?
    ) {
        self.protectionSpace = protectionSpace
        self.previousFailureCount = previousFailureCount
        self.failureResponse = failureResponse
        self.proposedCredential = proposedCredential
    }
}

/// The answer to a challenge (URLSession's `AuthChallengeDisposition`).
public enum ChallengeDisposition: Sendable, Hashable {
    /// Retry the request with this credential.
    case useCredential(Credential)
    /// No credential: the transfer fails with the 401 (``TransportError/Code/httpStatus``).
    case performDefaultHandling
    /// Stop: the transfer fails with ``TransportError/Code/cancelled``.
    case cancel
    /// Not this scheme: ask again for the server's next scheme, if it offered another;
    /// else the transfer fails with ``TransportError/Code/authenticationFailed``.
    case rejectProtectionSpace
}

/// A certificate and private key the client presents in the TLS handshake (mutual TLS).
public struct ClientIdentity: Sendable, Hashable {
    /// The client certificate, then any intermediates, PEM.
    public var certificateChainPEM: String
    /// The private key, PEM (PKCS#8, or PKCS#1 / SEC1; encrypted when `passphrase` is set).
    public var privateKeyPEM: String
    public var passphrase: String?

    public init(certificateChainPEM: String, privateKeyPEM: String, passphrase: String? = nil) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.passphrase = passphrase
    }
}

/// Answers authentication challenges and supplies client certificates.
public protocol AuthenticationChallengeHandling: Sendable {
    /// Called off the transport's thread; the transfer waits, other transfers go on.
    func handle(_ challenge: AuthenticationChallenge) async -> ChallengeDisposition
    /// The identity to present when connecting to `host:port` over TLS, if any. Called on
    /// the transport's thread before connecting: keep it quick.
    func clientIdentity(forHost host: String, port: Int) -> ClientIdentity?
}

extension AuthenticationChallengeHandling {
    public func clientIdentity(forHost host: String, port: Int) -> ClientIdentity? { nil }
}
