import Foundation
import WebImageCore

/// Trusts a server whose chain leads to one of your own certificates (a private
/// certificate authority, or a self-signed server certificate), instead of, or besides,
/// the system's authorities.
///
/// With only custom anchors this is also how to pin a root certificate the server does
/// not send: a chain that validates against that anchor alone leads to it.
public struct AnchoredTrustEvaluator: ServerTrustEvaluating {
    /// The certificates a chain may lead to.
    public let anchors: [Certificate]
    /// Whether the system's authorities are trusted too.
    public let includesSystemAnchors: Bool
    /// Whether the leaf must be for the host being fetched.
    public let validateHost: Bool

    /// - Parameters:
    ///   - anchors: with `includesSystemAnchors` false and no anchors, no server
    ///     is trusted (`ServerTrustError.Code.untrustedChain`).
    ///   - includesSystemAnchors: whether the system's authorities are trusted too.
    ///   - validateHost: whether the leaf must be for the host being fetched.
    public init(anchors: [Certificate], includesSystemAnchors: Bool = false, validateHost: Bool = true) {
        self.anchors = anchors
        self.includesSystemAnchors = includesSystemAnchors
        self.validateHost = validateHost
    }

    /// The anchors of a PEM text (every `CERTIFICATE` block).
    ///
    /// - Throws: `ServerTrustError.Code.invalidCertificate` when there is no
    ///   certificate, or a block is damaged.
    public init(pem: String, includesSystemAnchors: Bool = false, validateHost: Bool = true) throws(ServerTrustError) {
        self.init(anchors: try Certificate.fromPEM(pem), includesSystemAnchors: includesSystemAnchors, validateHost: validateHost)
    }

    /// The anchors of certificate files, each PEM (one or more certificates) or DER (one).
    ///
    /// - Throws: `ServerTrustError.Code.invalidCertificate` when a file cannot be read
    ///   or holds no certificate.
    public init(contentsOf files: [URL], includesSystemAnchors: Bool = false, validateHost: Bool = true) throws(ServerTrustError) {
        var anchors: [Certificate] = []
        for file in files { anchors += try Certificate.load(contentsOf: file) }
        self.init(anchors: anchors, includesSystemAnchors: includesSystemAnchors, validateHost: validateHost)
    }

    /// What is passed to `ServerTrust.validate(anchors:host:)`.
    public var trustAnchors: TrustAnchors {
        includesSystemAnchors ? .systemAnd(anchors) : .custom(anchors)
    }

    /// - Throws: what `ServerTrust.validate(anchors:host:)` reports, naming the host;
    ///   `ServerTrustError.Code.untrustedChain` when there is nothing to trust at all.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        guard includesSystemAnchors || !anchors.isEmpty else {
            throw ServerTrustError(.untrustedChain, "no anchor certificate to trust", host: trust.host)
        }
        try trust.requireValid(anchors: trustAnchors, validatingHost: validateHost)
    }
}
