import WebImageCore

/// Trusts a server that every evaluator trusts, asking them in order and stopping at the
/// first that refuses (Alamofire's `CompositeTrustEvaluator`).
public struct CompositeTrustEvaluator: ServerTrustEvaluating {
    /// The evaluators, in the order they are asked.
    public let evaluators: [any ServerTrustEvaluating]

    /// - Parameter evaluators: with none, every server is trusted.
    public init(_ evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// A stapled response is asked for when any evaluator asks for one; full handshakes
    /// when any checks revocation.
    public var revocationRequirements: RevocationRequirements? {
        let asked = evaluators.compactMap(\.revocationRequirements)
        guard !asked.isEmpty else { return nil }
        return RevocationRequirements(requestsStapledOCSPResponse: asked.contains(where: \.requestsStapledOCSPResponse))
    }

    /// - Throws: the error of the first evaluator that refuses, naming the host.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        for evaluator in evaluators {
            do {
                try evaluator.evaluate(trust)
            } catch {
                throw error.naming(trust.host)
            }
        }
    }
}
