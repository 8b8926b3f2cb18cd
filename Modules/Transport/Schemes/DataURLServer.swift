import Foundation
import WebImageCore

/// Serves a `data:` URL without libcurl or a connection: the head and the bytes go to
/// the transfer's delegate at once. Loop thread only.
enum DataURLServer {
    /// Delivers the URL's content to `state`'s delegate; the transfer's result.
    static func serve(_ state: TransferState) -> Result<TransportResponse, TransportError> {
        guard let data = DataURL(state.url) else {
            return .failure(TransportError(.invalidURL, "a malformed data URL", url: state.url))
        }
        if let limit = state.request.maximumBodySize, Int64(data.bytes.count) > limit {
            return .failure(TransportError(.bodyTooLarge, "the data URL holds \(data.bytes.count) bytes, over \(limit)", url: state.url))
        }
        let response = TransportResponse(
            url: state.url, statusCode: 200,
            headers: ["Content-Type": data.mediaType, "Content-Length": String(data.bytes.count)], httpVersion: nil)
        state.deliver(response)
        if state.request.method == .get, !data.bytes.isEmpty {
            state.reception = .delivering
            _ = data.bytes.withUnsafeBytes { state.receiveBody($0) }
        }
        return state.failure.map { .failure($0) } ?? .success(response)
    }
}
