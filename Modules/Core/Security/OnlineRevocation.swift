/// Asking a certificate's own responder or distribution point about it, when the server
/// staples nothing: the policy an evaluator hands the transport in
/// ``RevocationCheck/online``.
///
/// The transport never waits on the network inside a handshake. When an answer is
/// missing, it ends that handshake, fetches the OCSP response (an HTTP `GET` of the DER
/// request, RFC 6960 appendix A) or the list as an ordinary transfer of its own (one that
/// checks no revocation itself), verifies it, keeps it until its `nextUpdate`, and
/// connects once more. Only the leaf is asked about, and only `http` URLs are followed.
///
/// An answer that arrives but does not verify (bytes that do not parse, a signature by
/// another key, a response about another certificate, one whose `nextUpdate` has
/// passed) fails the handshake under either ``UnreachablePolicy``: it is never read as
/// "not revoked".
public struct OnlineRevocation: Sendable, Hashable {
    /// Which of the leaf's sources are asked, in this order: the next one only when the
    /// one before could not be reached.
    public struct Sources: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The OCSP responder of the leaf's Authority Information Access extension.
        public static let ocspResponder = Sources(rawValue: 1 << 0)
        /// The first `http` URL of the leaf's CRL distribution points.
        public static let crlDistributionPoint = Sources(rawValue: 1 << 1)
    }

    /// What a responder that cannot be reached (refused, timed out, an HTTP error) means.
    public enum UnreachablePolicy: Sendable, Hashable {
        /// The connection goes on, as if nothing had been asked, and monitors hear
        /// `TransportEventMonitor.transfer(_:didSoftFailRevocationFor:reason:)`. The
        /// default, as browsers that fetch OCSP do: an outage of the responder, or a
        /// network that blocks it, does not take every image of the host down with it.
        /// An attacker who can block the responder can make use of this too.
        case softFail
        /// The handshake fails with `ServerTrustError.Code.revocationUnverified`: for a
        /// private authority whose responder is part of your service.
        case hardFail
    }

    public var sources: Sources
    public var whenUnreachable: UnreachablePolicy
    /// The whole budget of one fetch: connecting, sending, receiving.
    public var timeout: Duration
    /// How long an unreachable responder, or an answer that did not verify, is
    /// remembered before it is asked again. A verified answer is kept until its
    /// `nextUpdate` (an hour when it has none).
    public var failureLifetime: Duration

    /// - Parameters:
    ///   - sources: the responder, then the distribution point, by default.
    ///   - whenUnreachable: soft-fail by default (see ``UnreachablePolicy``).
    ///   - timeout: 5 s by default.
    ///   - failureLifetime: a minute by default.
    public init(
        sources: Sources = [.ocspResponder, .crlDistributionPoint], whenUnreachable: UnreachablePolicy = .softFail,
        timeout: Duration = .seconds(5), failureLifetime: Duration = .seconds(60)
    ) {
        self.sources = sources
        self.whenUnreachable = whenUnreachable
        self.timeout = timeout
        self.failureLifetime = failureLifetime
    }

    /// How long a verified answer without a `nextUpdate` is kept.
    public static let lifetimeWithoutNextUpdate = Duration.seconds(3600)
}
