import WebImageCore

extension ServerTrust {
    /// Runs ``ServerTrust/validate(anchors:host:)`` and throws what it reports, naming
    /// the host being evaluated when the trust's error does not.
    func requireValid(anchors: TrustAnchors, validatingHost: Bool) throws(ServerTrustError) {
        if let error = validate(anchors: anchors, host: validatingHost ? host : nil) {
            throw error.naming(host)
        }
    }
}

extension ServerTrustError {
    /// This error with its host set to `host` when it had none.
    func naming(_ host: String) -> ServerTrustError {
        var error = self
        if error.host == nil { error.host = host }
        return error
    }
}
