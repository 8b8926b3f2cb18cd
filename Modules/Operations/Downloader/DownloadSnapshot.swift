import Foundation
import WebImageCore

/// One download in flight, as ``ImageDownloader/runningDownloads`` saw it (AFNetworking's
/// `tasks`): for a debug screen, a status page, or a log line when a server stops.
///
/// A snapshot, not a handle: it does not change, and the download may have moved on by
/// the time it is read.
public struct DownloadSnapshot: Sendable, CustomStringConvertible {
    /// Where a download is in its life.
    public enum Phase: String, Sendable, Hashable {
        /// Waiting in the queue for a slot.
        case waitingForSlot
        /// Holding a slot while the request modifier runs.
        case modifyingRequest
        /// Its transfer runs (or is paused: see ``DownloadSnapshot/isPaused``).
        case transferring
        /// An attempt failed; waiting to queue the next one.
        case waitingToRetry
        /// Paused before it got a slot: out of the queue until resumed.
        case held
        /// Stopped or ended, letting go of what it held.
        case ending
    }

    /// The download's key: its URL and what else sets it apart.
    public let key: DownloadKey
    public let phase: Phase
    /// Whether every subscriber present has paused it.
    public let isPaused: Bool
    /// The attempt under way or waited for, from 1.
    public let attempt: Int
    /// The bytes received by the current attempt (kept bytes it continues included).
    public let received: Int64
    /// How many bytes the response said are coming; `nil` before it came, or when it
    /// did not say.
    public let expected: Int64?
    /// The loads or callers sharing it.
    public let subscribers: Int
    /// The queue priority it waits at (the highest any subscriber asked).
    public let priority: DownloadPriority

    public init(
        key: DownloadKey, phase: Phase, isPaused: Bool, attempt: Int, received: Int64, expected: Int64?, subscribers: Int,
        priority: DownloadPriority
    ) {
        self.key = key
        self.phase = phase
        self.isPaused = isPaused
        self.attempt = attempt
        self.received = received
        self.expected = expected
        self.subscribers = subscribers
        self.priority = priority
    }

    /// The URL downloaded.
    public var url: URL? { URL(string: key.url) }

    public var description: String {
        let size = expected.map { "\(received)/\($0) bytes" } ?? "\(received) bytes"
        return "\(key.url): \(phase.rawValue)\(isPaused ? " (paused)" : ""), attempt \(attempt), \(size), \(subscribers) subscribers"
    }
}
