import Foundation
import WebImageCore

/// A finished load: the image, where it came from, and what the network said.
public struct ImageResponse: Sendable {
    /// The decoded (and transformed) image; `nil` only for
    /// ``ImageLoadOptions/returnDataWithoutDecoding``.
    public var image: DecodedImage?
    /// The image's bytes as downloaded or read from disk; `nil` for a memory hit.
    public var data: Data?
    public var source: ImageSource
    /// The request as the manager keyed it.
    public var request: ImageRequest
    /// The HTTP response of a download or revalidation.
    public var httpResponse: TransportResponse?
    /// Timings and byte counts of the transfer, like URLSessionTaskMetrics.
    public var metrics: TransferMetrics?

    public init(
        image: DecodedImage?, data: Data?, source: ImageSource, request: ImageRequest,
        httpResponse: TransportResponse? = nil, metrics: TransferMetrics? = nil
    ) {
        self.image = image
        self.data = data
        self.source = source
        self.request = request
        self.httpResponse = httpResponse
        self.metrics = metrics
    }
}
