import WebImageCore

/// Chooses a trust evaluator for each host (Alamofire's `ServerTrustManager`).
///
/// ```swift
/// let manager = ServerTrustManager(evaluators: [
///     "images.example.com": PublicKeyPinningTrustEvaluator(pins: [try PublicKeyPin("sha256//X91ZpU6EKhrEFjgU88+HS9CwgRsWKgkRJRgOGxDb4ew=")]),
///     "*.cdn.example.com": DefaultTrustEvaluator(),
///     "localhost": AnchoredTrustEvaluator(anchors: devCertificates),
/// ])
/// ```
///
/// Keys are host names, compared without case (a final dot and the brackets of an IPv6
/// literal are ignored), or wildcards: `*.example.com` covers the hosts one label below
/// `example.com` (`a.example.com`, not `a.b.example.com` nor `example.com` itself), as a
/// wildcard in a certificate does. A `*` anywhere else is compared as written, so never
/// matches. An exact key wins over a wildcard. Wildcards never cover an IP address.
///
/// A host no key covers gets the transport's default validation (system authorities and
/// host name), or, when ``allHostsMustBeEvaluated`` (the default), fails before
/// connecting: a forgotten host is an error, not a silent downgrade to the default.
public struct ServerTrustManager: ServerTrustPolicy {
    /// Whether a host no evaluator covers fails with `ServerTrustError.Code.noEvaluator`.
    public let allHostsMustBeEvaluated: Bool
    /// Evaluators by exact host, normalized.
    private let exact: [String: any ServerTrustEvaluating]
    /// Evaluators by the domain under a `*.` wildcard, normalized.
    private let wildcards: [String: any ServerTrustEvaluating]

    /// - Parameters:
    ///   - allHostsMustBeEvaluated: whether a host no key covers fails rather than
    ///     getting the default validation.
    ///   - evaluators: evaluators by host or `*.domain` wildcard.
    /// - Precondition: no two keys name the same host once lowercased.
    public init(allHostsMustBeEvaluated: Bool = true, evaluators: [String: any ServerTrustEvaluating]) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        var exact: [String: any ServerTrustEvaluating] = [:]
        var wildcards: [String: any ServerTrustEvaluating] = [:]
        for (key, evaluator) in HostName.normalizingKeys(evaluators, of: "ServerTrustManager") {
            if key.hasPrefix("*.") {
                wildcards[String(key.dropFirst(2))] = evaluator
            } else {
                exact[key] = evaluator
            }
        }
        self.exact = exact
        self.wildcards = wildcards
    }

    /// The evaluator for `host`: the one of its exact key, else of the wildcard that covers it.
    ///
    /// - Returns: `nil` when no key covers `host` and not every host must be evaluated.
    /// - Throws: `ServerTrustError.Code.noEvaluator`, naming the host, when no key
    ///   covers it and every host must be evaluated.
    public func evaluator(forHost host: String) throws(ServerTrustError) -> (any ServerTrustEvaluating)? {
        let name = HostName.normalized(host)
        if let evaluator = exact[name] { return evaluator }
        if !wildcards.isEmpty, !HostName.isIPAddress(name), let dot = name.firstIndex(of: "."), dot > name.startIndex,
            let evaluator = wildcards[String(name[name.index(after: dot)...])]
        {
            return evaluator
        }
        guard !allHostsMustBeEvaluated else {
            throw ServerTrustError(.noEvaluator, "no evaluator covers this host, and every host must be evaluated", host: host)
        }
        return nil
    }
}
