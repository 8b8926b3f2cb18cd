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
        case .shutDown:
            self.init(.shuttingDown, "the proxy is shutting down")
        default:
            self.init(.sourceFailed, "the source could not be loaded: \(error)")
        }
    }

    private init(transport error: TransportError) {
        switch error.code {
        case .refusedByPolicy:
            self.init(.sourceForbidden, "the source is refused: \(error.policyViolation.map { "\($0)" } ?? error.message)")
        case .timedOut, .connectTimeout, .stalled, .waitedForConnection:
            self.init(.sourceTimeout, "the source took too long: \(error.message)")
        case .bodyTooLarge:
            self.init(.tooLarge, "the source is over the byte limit: \(error.message)")
        case .httpStatus where error.statusCode == 404 || error.statusCode == 410:
            self.init(.sourceNotFound, "the source answered \(error.statusCode ?? 404)")
        case .httpStatus:
            self.init(.sourceFailed, "the source answered \(error.statusCode.map(String.init) ?? "an error status")")
        default:
            self.init(.sourceFailed, "the source could not be fetched (\(error.code)): \(error.message)")
        }
    }
}
