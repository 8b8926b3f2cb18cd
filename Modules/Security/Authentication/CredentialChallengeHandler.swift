import WebImageCore

/// Answers authentication challenges from a ``CredentialStore`` or one fixed credential,
/// and presents client certificates by host (the challenge handling of SDWebImage's
/// downloader operation).
///
/// ```swift
/// let store = CredentialStore()
/// store.setDefault(Credential(user: "reader", password: secret), forHost: "images.example.com", port: 443)
/// let handler = CredentialChallengeHandler(store: store, clientIdentities: ["mtls.example.com": identity])
///
/// // Negotiate (Kerberos) for the intranet host, with the tickets kinit left in the cache:
/// store.setDefault(.kerberosTicketCache, forHost: "intranet.example.com", port: 443)
/// ```
///
/// A challenge is answered by the first rule that applies:
/// 1. `onChallenge`, when given and it returns a disposition;
/// 2. a scheme the transport cannot answer (`AuthenticationMethod.other(_:)`: Bearer,
///    ...): `ChallengeDisposition.rejectProtectionSpace`, so the transport tries the
///    server's next scheme;
/// 3. a credential was already refused (`previousFailureCount > 0`):
///    `ChallengeDisposition.performDefaultHandling`, so the transfer fails with the 401
///    (`TransportError.Code.httpStatus`); the same credential is not offered twice.
///    SDWebImage cancels here instead; a 401 tells the caller what went wrong, where
///    "cancelled" would read as if they had cancelled;
/// 4. the fixed `credential` when given, else the store's credential for the protection
///    space: `ChallengeDisposition.useCredential(_:)` when it can answer the scheme
///    (`Credential.answers(_:)`: a password for Basic, Digest and NTLM, the Kerberos
///    ticket cache for Negotiate), else `ChallengeDisposition.rejectProtectionSpace`, so
///    a server offering `Negotiate, NTLM` gets NTLM from a password and Negotiate from
///    `Credential.kerberosTicketCache`;
/// 5. nothing to offer: `ChallengeDisposition.performDefaultHandling`.
public struct CredentialChallengeHandler: AuthenticationChallengeHandling {
    /// Consulted before anything else; `nil` lets the handler's rules answer.
    public typealias ChallengeHook = @Sendable (AuthenticationChallenge) async -> ChallengeDisposition?

    /// Where credentials are looked up.
    public let store: CredentialStore
    /// The credential offered to every challenge, instead of the store's.
    public let credential: Credential?
    /// Client identities (mutual TLS) by host, normalized (lowercased).
    public let clientIdentities: [String: ClientIdentity]
    /// The client identity for hosts not in ``clientIdentities``.
    public let defaultClientIdentity: ClientIdentity?

    private let onChallenge: ChallengeHook?

    /// - Parameters:
    ///   - store: where credentials are looked up.
    ///   - credential: offered to every challenge, whatever its protection space, instead
    ///     of the store's.
    ///   - clientIdentities: identities presented to these hosts in the TLS handshake,
    ///     whatever the port; names compare without case.
    ///   - defaultClientIdentity: presented to every other host.
    ///   - onChallenge: asked first; return `nil` to let the rules above answer.
    /// - Precondition: no two keys of `clientIdentities` name the same host once lowercased.
    public init(
        store: CredentialStore = CredentialStore(),
        credential: Credential? = nil,
        clientIdentities: [String: ClientIdentity] = [:],
        defaultClientIdentity: ClientIdentity? = nil,
        onChallenge: ChallengeHook? = nil
    ) {
        self.store = store
        self.credential = credential
        self.clientIdentities = HostName.normalizingKeys(clientIdentities, of: "CredentialChallengeHandler")
        self.defaultClientIdentity = defaultClientIdentity
        self.onChallenge = onChallenge
    }

    /// The disposition of the first rule that applies (see the type's description).
    public func handle(_ challenge: AuthenticationChallenge) async -> ChallengeDisposition {
        if let onChallenge, let disposition = await onChallenge(challenge) {
            return disposition
        }
        if case .other = challenge.protectionSpace.method {
            return .rejectProtectionSpace
        }
        guard challenge.previousFailureCount == 0 else {
            return .performDefaultHandling
        }
        if let found = credential ?? store.credential(for: challenge.protectionSpace) {
            return found.answers(challenge.protectionSpace.method) ? .useCredential(found) : .rejectProtectionSpace
        }
        return .performDefaultHandling
    }

    /// The identity for `host` in ``clientIdentities``, else ``defaultClientIdentity``.
    public func clientIdentity(forHost host: String, port: Int) -> ClientIdentity? {
        clientIdentities[HostName.normalized(host)] ?? defaultClientIdentity
    }
}
