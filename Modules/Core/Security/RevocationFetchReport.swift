import Foundation

/// One fetch of a revocation answer by the transport (see ``OnlineRevocation``), as a
/// transport monitor hears of it.
public struct RevocationFetchReport: Sendable, Hashable, CustomStringConvertible {
    /// How the fetch ended.
    public enum Outcome: Sendable, Hashable {
        /// An answer arrived and was verified: what it says about the leaf.
        case answered(RevocationStatus)
        /// Bytes arrived but do not verify: why not.
        case unusable(String)
        /// The responder could not be reached, or answered with an HTTP error: why.
        case unreachable(String)
    }

    /// The host whose certificate was asked about.
    public var host: String
    /// ``RevocationSource/ocspResponder`` or ``RevocationSource/crlDistributionPoint``.
    public var source: RevocationSource
    /// The URL asked: the responder's (without the request), or the list's.
    public var url: URL
    public var outcome: Outcome

    public init(host: String, source: RevocationSource, url: URL, outcome: Outcome) {
        self.host = host
        self.source = source
        self.url = url
        self.outcome = outcome
    }

    public var description: String {
        let said: String =
            switch outcome {
            case .answered(let status): "answered \(status)"
            case .unusable(let why): "unusable: \(why)"
            case .unreachable(let why): "unreachable: \(why)"
            }
        return "\(source) \(url.absoluteString) for \(host): \(said)"
    }
}
