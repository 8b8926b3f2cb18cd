import WebImageCore

/// Refuses every server with one error: what a ``SecurityPolicy`` that cannot succeed
/// evaluates with.
struct RejectingTrustEvaluator: ServerTrustEvaluating {
    let code: ServerTrustError.Code
    let message: String

    func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        throw ServerTrustError(code, message, host: trust.host)
    }
}
