import WebImageCore

/// Trusts every server, whatever it presents: no chain, date, host or pin is checked.
///
/// - Warning: Anyone on the network path can then read and change the traffic, including
///   credentials sent to the server. Use it only for a development server on a network
///   you control, never in a shipped app; prefer ``AnchoredTrustEvaluator`` with the
///   server's self-signed certificate, or ``CertificatePinningTrustEvaluator``.
public struct DangerouslyDisabledTrustEvaluator: ServerTrustEvaluating {
    /// An evaluator that trusts every server (see the warning above).
    public init() {}

    /// Never throws.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {}
}
