import Testing
import WebImageCore

/// The `ServerTrustError` `body` throws, or `nil` when it returns. Any other error is
/// recorded as an issue.
func trustError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ServerTrustError? {
    do {
        try body()
        return nil
    } catch let error as ServerTrustError {
        return error
    } catch {
        Issue.record(error, "not a ServerTrustError", sourceLocation: sourceLocation)
        return nil
    }
}

extension TrustAnchors {
    /// The custom certificates, whatever the case.
    var customCertificates: [Certificate] {
        switch self {
        case .system: []
        case .custom(let certificates), .systemAnd(let certificates): certificates
        }
    }
}
