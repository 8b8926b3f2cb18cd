import WebImageCore

/// Trusts a server whose chain leads to one of the system's certificate authorities and,
/// unless told otherwise, whose certificate is for the host being fetched: what the
/// transport does with no evaluator at all (Alamofire's `DefaultTrustEvaluator`).
public struct DefaultTrustEvaluator: ServerTrustEvaluating {
    /// Whether the leaf must be for the host (DNS name or IP address in its subject
    /// alternative names). Turn it off only for a server reached by a name its
    /// certificate does not carry.
    public let validateHost: Bool

    /// - Parameter validateHost: whether the leaf must be for the host.
    public init(validateHost: Bool = true) {
        self.validateHost = validateHost
    }

    /// - Throws: what `ServerTrust.validate(anchors:host:)` reports (`ServerTrustError.Code.untrustedChain`,
    ///   `ServerTrustError.Code.expired`, `ServerTrustError.Code.hostMismatch`, ...), naming the host.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        try trust.requireValid(anchors: .system, validatingHost: validateHost)
    }
}
