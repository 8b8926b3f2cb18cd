import Foundation
import WebImageCore

/// Refuses a server whose certificate is revoked, by the OCSP response it staples to the
/// handshake or by certificate revocation lists you give it (Alamofire's
/// `RevocationTrustEvaluator`), after validating the chain as ``AnchoredTrustEvaluator``
/// or ``DefaultTrustEvaluator`` would.
///
/// ```swift
/// let evaluator = try RevocationTrustEvaluator(
///     options: [.ocsp, .crl, .requirePositiveResponse],
///     revocationListFiles: [URL(fileURLWithPath: "/etc/webimage/ca.crl")])
/// let policy = ServerTrustManager(evaluators: ["images.example.com": evaluator])
/// ```
///
/// By default nothing is fetched: the only OCSP answer is the server's stapled response
/// (about its own certificate), and the only lists are the ones configured here; refresh
/// them yourself before they expire. With `online` (an `OnlineRevocation`), a leaf that
/// neither has a stapled answer nor one from the lists is asked about at its own OCSP
/// responder or CRL distribution point: the transport fetches the answer between two
/// connection attempts, never inside the handshake, keeps it until its `nextUpdate`,
/// and soft-fails by default when the responder cannot be reached:
///
/// ```swift
/// let online = RevocationTrustEvaluator(options: [.ocsp], online: OnlineRevocation(whenUnreachable: .hardFail))
/// ```
///
/// The decision, made before any request byte is sent:
/// - any source saying a certificate is revoked fails with `ServerTrustError.Code.revoked`;
/// - a response or list that does not verify, has expired, or is about another
///   certificate fails with `ServerTrustError.Code.revocationUnverified`: a broken
///   answer is never read as "not revoked";
/// - with ``Options/requirePositiveResponse``, the leaf needs a `good` answer from an
///   enabled source and every certificate the lists are asked about needs one from its
///   issuer's list; a server that staples nothing, or an `unknown`, then fails with
///   `ServerTrustError.Code.revocationUnverified`. Without it, silence passes.
///
/// Thread contract: a value; `evaluate(_:)` runs on the transport's thread during the
/// handshake and reads no file.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// Alamofire's options, for an offline check.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Ask the server to staple an OCSP response, and read it.
        public static let ocsp = Options(rawValue: 1 << 0)
        /// Consult the configured revocation lists.
        public static let crl = Options(rawValue: 1 << 1)
        /// With both sources, the lists' answer is consulted (and reported) first.
        public static let preferCRL = Options(rawValue: 1 << 2)
        /// Silence is not enough: a positive `good` answer is needed (see above).
        public static let requirePositiveResponse = Options(rawValue: 1 << 3)
    }

    public let options: Options
    /// The lists consulted with ``Options/crl``.
    public let revocationLists: [CertificateRevocationList]
    /// Which certificates the lists are asked about.
    public let scope: RevocationScope
    /// What the chain must lead to, and where an issuer the server did not send is found.
    public let anchors: TrustAnchors
    /// Whether the chain is validated (anchors, dates) before revocation is checked.
    public let performsDefaultValidation: Bool
    /// Whether the leaf must be for the host being fetched.
    public let validateHost: Bool
    /// Whether, and how, the leaf's own responder or distribution point is asked when the
    /// offline sources say nothing about it; `nil` for never.
    public let online: OnlineRevocation?

    /// - Parameters:
    ///   - options: the sources and the strictness; by default the stapled response and
    ///     the lists, silence passing.
    ///   - revocationLists: lists, DER or PEM.
    ///   - scope: the leaf only, or every certificate that is not self-signed.
    ///   - anchors: `.system` by default; your private authority with `.custom`.
    ///   - performsDefaultValidation: turn it off only when another evaluator of a
    ///     ``CompositeTrustEvaluator`` validates the chain: an answer is trusted as far
    ///     as the issuer that signed it, which only chain validation vouches for.
    ///   - validateHost: whether the leaf must be for the host.
    ///   - online: asks the leaf's responder or distribution point when the stapled
    ///     response and the lists say nothing; `nil` (the default) for never.
    public init(
        options: Options = [.ocsp, .crl], revocationLists: [CertificateRevocationList] = [], scope: RevocationScope = .leaf,
        anchors: TrustAnchors = .system, performsDefaultValidation: Bool = true, validateHost: Bool = true,
        online: OnlineRevocation? = nil
    ) {
        self.options = options
        self.revocationLists = revocationLists
        self.scope = scope
        self.anchors = anchors
        self.performsDefaultValidation = performsDefaultValidation
        self.validateHost = validateHost
        self.online = online
    }

    /// The same with the lists read from files now (not during a handshake).
    ///
    /// - Throws: `SecurityError.Code.unreadableFile` when a file cannot be read or is empty.
    public init(
        options: Options = [.ocsp, .crl], revocationListFiles: [URL], scope: RevocationScope = .leaf, anchors: TrustAnchors = .system,
        performsDefaultValidation: Bool = true, validateHost: Bool = true, online: OnlineRevocation? = nil
    ) throws(SecurityError) {
        var lists: [CertificateRevocationList] = []
        for file in revocationListFiles {
            guard let data = try? Data(contentsOf: file), !data.isEmpty else {
                throw SecurityError(.unreadableFile, "cannot read the revocation list \(file.path)")
            }
            lists.append(CertificateRevocationList(bytes: Array(data)))
        }
        self.init(
            options: options, revocationLists: lists, scope: scope, anchors: anchors,
            performsDefaultValidation: performsDefaultValidation, validateHost: validateHost, online: online)
    }

    /// Asks for a stapled response when ``Options/ocsp`` is set, and for full handshakes
    /// (a resumed session would skip the check).
    public var revocationRequirements: RevocationRequirements? {
        RevocationRequirements(requestsStapledOCSPResponse: options.contains(.ocsp))
    }

    /// - Throws: the chain validation's error (see ``AnchoredTrustEvaluator``);
    ///   `ServerTrustError.Code.revoked` or `ServerTrustError.Code.revocationUnverified`
    ///   with `ServerTrustError.revocation` set; each naming the host.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        if performsDefaultValidation {
            try trust.requireValid(anchors: anchors, validatingHost: validateHost)
        }
        let readsLists = options.contains(.crl) && !revocationLists.isEmpty
        guard options.contains(.ocsp) || readsLists || online != nil else { return }
        let answers = trust.checkRevocation(
            RevocationCheck(
                readsStapledOCSPResponse: options.contains(.ocsp), revocationLists: readsLists ? revocationLists : [], scope: scope,
                issuerAnchors: anchors, online: online))
        try RevocationDecision(options: options).decide(answers, host: trust.host)
    }
}
