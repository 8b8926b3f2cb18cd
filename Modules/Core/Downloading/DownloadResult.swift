import Foundation

/// A finished download: the body and how it came.
///
/// The bytes are not decoded here: a manager decodes them once per distinct decode
/// request and shares the image.
public struct DownloadResult: Sendable {
    /// The body; empty for a 304 answer to a conditional request.
    public var data: Data
    /// The final response head (after redirects).
    public var response: TransportResponse
    /// The metrics of the attempt that succeeded.
    public var metrics: TransferMetrics
    /// How many transfers it took: 1, plus the retries.
    public var attempts: Int

    public init(data: Data, response: TransportResponse, metrics: TransferMetrics, attempts: Int) {
        self.data = data
        self.response = response
        self.metrics = metrics
        self.attempts = attempts
    }

    /// The server said the copy the validators describe is still good (304).
    public var isNotModified: Bool { response.isNotModified }
}
