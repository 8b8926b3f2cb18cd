import Foundation
import WebImageConcurrency
import WebImageCore
import WebImageResources

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
    /// Whether the image was decoded from a stored variant
    /// (``ImageManager/Configuration/variantStorage``) rather than from the source's
    /// bytes: ``source`` then says which cache held it (``ImageSource/disk`` or
    /// ``ImageSource/shared``), and ``data`` is `nil`.
    public var isStoredVariant = false
    /// Whether this load joined work another load of the same image had started: the
    /// two shared one run (one download, one decode), so ``source``, ``httpResponse`` and
    /// ``metrics`` describe what that run did, and this load asked nothing of its own.
    /// Count the loads that are not coalesced to count requests made of an origin.
    public var isCoalesced = false
    /// The load that started the run that made this response, to tell its subscribers
    /// which of them started it (``isCoalesced``).
    var startingLoad: UInt64?
    /// The memory budget's bytes for the decode, held while the response is on its way
    /// to the load's callers; never part of what a caller gets (``handedOver``).
    var budgetReservation: MemoryReservation?

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

extension ImageResponse {
    /// A response for a run's decoded image, carrying its budget reservation.
    init(
        _ decoded: BudgetedImage?, data: Data?, source: ImageSource, request: ImageRequest,
        httpResponse: TransportResponse? = nil, metrics: TransferMetrics? = nil
    ) {
        self.init(
            image: decoded?.image, data: data, source: source, request: request, httpResponse: httpResponse, metrics: metrics)
        budgetReservation = decoded?.reservation
    }

    /// The response as a caller gets it: without the budget reservation, so that a caller
    /// keeping the response never keeps the budget's bytes. They are given back when the
    /// copies the manager passes along are gone.
    var handedOver: ImageResponse {
        var response = self
        response.budgetReservation = nil
        return response
    }

    /// The run's response as the subscriber that is load `load` hears it: one copy, which
    /// keeps the budget reservation only when `keepingReservation` (the async API hands it
    /// over itself, as it resumes).
    func heard(byLoad load: UInt64, keepingReservation: Bool) -> ImageResponse {
        var response = self
        response.isCoalesced = startingLoad.map { $0 != load } ?? false
        if !keepingReservation { response.budgetReservation = nil }
        return response
    }
}
