import WebImageCore

/// Which of the certificates a server presents a pin may match.
public enum PinScope: Sendable, Hashable {
    /// Only the server's own certificate, the first presented.
    case leaf
    /// Any certificate presented: the leaf or an intermediate (a pin on your
    /// certificate authority's intermediate survives the renewal of the leaf).
    case anyInChain
}

extension PinScope {
    /// The certificates `trust` presents that a pin may match.
    ///
    /// - Throws: ``ServerTrustError/Code/invalidCertificate`` when the server presented none.
    func certificates(presentedBy trust: any ServerTrust) throws(ServerTrustError) -> ArraySlice<Certificate> {
        let presented = trust.certificates
        guard !presented.isEmpty else {
            throw ServerTrustError(.invalidCertificate, "the server presented no certificate", host: trust.host)
        }
        switch self {
        case .leaf: return presented.prefix(1)
        case .anyInChain: return presented[...]
        }
    }

    /// Why no presented certificate or key in scope matched, for a ``ServerTrustError/Code/pinMismatch``.
    /// - Parameter noun: "certificate" or "public key".
    func mismatchMessage(presented: Int, pinned: Int, noun: String) -> String {
        guard pinned > 0 else { return "no \(noun) is pinned, so none can match" }
        let pins = pinned == 1 ? "the pinned \(noun)" : "any of the \(pinned) pinned \(noun)s"
        switch self {
        case .leaf:
            return "the leaf \(noun) does not match \(pins)"
        case .anyInChain where presented == 1:
            return "the only \(noun) presented does not match \(pins)"
        case .anyInChain:
            return "none of the \(presented) \(noun)s presented matches \(pins)"
        }
    }
}
