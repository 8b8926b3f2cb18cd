import Foundation
import WebImageCore
import WebImageManager

extension ProxyError {
    /// A failed source load as the answer it gets: refused by the URL policy (403),
    /// missing (404), over the byte limit (422), too slow (504), anything else about the
    /// source (502).
    init(source error: ImageLoadError) {
        switch error {
        case .download(.transport(let transport)):
            self.init(transport: transport)
        case .download(.responseRejected(let reason, let response)):
            if response.statusCode == 404 || response.statusCode == 410 {
                self.init(.sourceNotFound, "the source answered \(response.statusCode)")
            } else {
                self.init(.sourceFailed, "the source's response was refused (\(response.statusCode)): \(reason)")
            }
        case .failedRecently(let url):
            self.init(.sourceNotFound, "\(url.absoluteString) was missing a short while ago")
        case .decoding(let decoding, _, _):
            self = ThumbnailRenderer.proxyError(for: decoding)
        case .shutdown:
            self.init(.shuttingDown, "the proxy is shutting down")
        case .cancelled:
            self.init(.sourceFailed, "the request was cancelled")
        default:
            self.init(.sourceFailed, "the source could not be loaded: \(error)")
        }
    }

    private init(transport error: TransportError) {
        // Plain comparisons, not a `switch` with `where` clauses over the error: Swift
        // 6.3's optimiser crashed on that form (an ownership error in CopyPropagation).
        let code = error.code
        let status = error.statusCode
        let message = error.message
        if code == .refusedByPolicy {
            let rule = error.policyViolation.map { "\($0)" } ?? message
            self.init(.sourceForbidden, "the source is refused: \(rule)")
        } else if [.timedOut, .connectTimeout, .stalled, .waitedForConnection].contains(code) {
            self.init(.sourceTimeout, "the source took too long: \(message)")
        } else if code == .bodyTooLarge {
            self.init(.tooLarge, "the source is over the byte limit: \(message)")
        } else if code == .httpStatus, status == 404 || status == 410 {
            self.init(.sourceNotFound, "the source answered \(status ?? 404)")
        } else if code == .httpStatus {
            self.init(.sourceFailed, "the source answered \(status.map(String.init) ?? "an error status")")
        } else {
            self.init(.sourceFailed, "the source could not be fetched (\(code)): \(message)")
        }
    }
}
