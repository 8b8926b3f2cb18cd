import WebImageCore

/// One evaluator for every host the transport reaches, redirects to other hosts
/// included: what a command-line flag or a single-purpose client means by "trust this".
/// ``ServerTrustManager`` names its hosts up front instead.
///
/// ```swift
/// configuration.trustPolicy = AllHostsTrustPolicy(try AnchoredTrustEvaluator(contentsOf: [caFile]))
/// ```
public struct AllHostsTrustPolicy: ServerTrustPolicy {
    public let evaluator: any ServerTrustEvaluating

    public init(_ evaluator: any ServerTrustEvaluating) {
        self.evaluator = evaluator
    }

    public func evaluator(forHost host: String) throws(ServerTrustError) -> (any ServerTrustEvaluating)? {
        evaluator
    }
}
