import Foundation
import WebImageCore

/// One transfer in flight, as ``CurlTransport/transfersInFlight()`` saw it
/// (AFNetworking's `tasks`): which task, where it is fetching, what it is doing, and how
/// far it has got.
public struct TransferSnapshot: Sendable {
    /// What a transfer in flight is doing.
    public enum State: Sendable, Hashable {
        /// Its request waits for a connection: the host is at the transport's connection
        /// limit (`TransportConfiguration.maximumConnectionsPerHost`).
        case waitingForConnection
        /// Sending its request or receiving the response, or between two hops (a
        /// redirect, an authentication retry).
        case running
        /// Paused (`TransferTask.pause()`), until resumed.
        case paused
        /// A 401's challenge is with the challenge handler, which has not answered yet.
        case awaitingChallengeAnswer
    }

    /// The transfer's task: the one its `start` returned.
    public var task: TransferTask
    /// The URL it was started with.
    public var requestURL: URL
    /// The URL of its current hop (another after a redirect).
    public var url: URL
    public var state: State
    /// The body bytes received so far and the length announced, as the delegate last saw
    /// them (`received` 0 before the body begins).
    public var progress: TransferProgress

    public init(task: TransferTask, requestURL: URL, url: URL, state: State, progress: TransferProgress) {
        self.task = task
        self.requestURL = requestURL
        self.url = url
        self.state = state
        self.progress = progress
    }
}
