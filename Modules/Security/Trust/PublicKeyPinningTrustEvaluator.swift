import WebImageCore

/// Trusts a server that presents a certificate with one of the pinned public keys
/// (Alamofire's `PublicKeysTrustEvaluator`, curl's `CURLOPT_PINNEDPUBKEY`). A key pin
/// survives the renewal of a certificate that keeps its key.
public struct PublicKeyPinningTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys. With none, every evaluation fails with `ServerTrustError.Code.pinMismatch`.
    public let pins: [PublicKeyPin]
    /// Which presented certificates' keys may match.
    public let scope: PinScope
    /// Whether the chain is validated first, against the system's authorities. Without
    /// it only the pin is checked, and the host name is not checked either:
    /// `ServerTrust` checks it as part of the chain.
    public let performsDefaultValidation: Bool
    /// Whether the default validation checks that the leaf is for the host.
    public let validateHost: Bool

    /// An evaluator pinning `pins`; the other parameters are the properties above.
    public init(pins: [PublicKeyPin], scope: PinScope = .anyInChain, performsDefaultValidation: Bool = true, validateHost: Bool = true) {
        self.pins = pins
        self.scope = scope
        self.performsDefaultValidation = performsDefaultValidation
        self.validateHost = validateHost
    }

    /// - Throws: the default validation's error, naming the host; `ServerTrustError.Code.invalidCertificate`
    ///   when the server presented no certificate, or the key of a pinned certificate
    ///   cannot be read (a configuration mistake fails loudly, not by matching less);
    ///   `ServerTrustError.Code.pinMismatch` when no presented key in scope is pinned
    ///   (the message gives the leaf's pin, to help fix a stale one).
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        if performsDefaultValidation {
            try trust.requireValid(anchors: .system, validatingHost: validateHost)
        }
        var pinned = Set<[UInt8]>()
        for (index, pin) in pins.enumerated() {
            guard let digest = pin.sha256(using: trust) else {
                throw ServerTrustError(
                    .invalidCertificate, "the public key of pinned certificate #\(index + 1) cannot be read", host: trust.host)
            }
            pinned.insert(digest)
        }
        let presented = try scope.certificates(presentedBy: trust)
        let keys = presented.map { trust.publicKeySHA256(of: $0) }
        guard !keys.contains(where: { $0.map(pinned.contains) ?? false }) else { return }
        var message = scope.mismatchMessage(presented: presented.count, pinned: pins.count, noun: "public key")
        if let leafKey = keys.first ?? nil {
            message += "; the leaf's is \(PublicKeyPin.curlForm(of: leafKey))"
        }
        throw ServerTrustError(.pinMismatch, message, host: trust.host)
    }
}
