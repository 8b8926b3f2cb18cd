import Foundation
import WebImageCore

/// One load run in flight, as ``ImageManager/runningLoads`` saw it (AFNetworking's
/// `tasks`, a level above the downloads): for a debug screen, a status page, or a log
/// line when a server stops.
///
/// A snapshot, not a handle: it does not change, and the run may have moved on by the
/// time it is read.
public struct ImageLoadSnapshot: Sendable, CustomStringConvertible {
    /// The stage a run is in.
    public enum Stage: UInt8, Sendable, Hashable, CustomStringConvertible {
        /// Made; its task has not begun.
        case starting
        case lookingInMemory
        case readingDisk
        case askingSharedCache
        /// Its download runs (or waits in the downloader's queue).
        case downloading
        /// A download failed because the network was down; waiting for it to come back.
        case waitingForNetwork
        /// Decoding, transforming and storing what it got.
        case decoding
        /// Handing its result to its loads.
        case finishing

        public var description: String {
            switch self {
            case .starting: "starting"
            case .lookingInMemory: "looking in memory"
            case .readingDisk: "reading the disk cache"
            case .askingSharedCache: "asking the shared cache"
            case .downloading: "downloading"
            case .waitingForNetwork: "waiting for the network"
            case .decoding: "decoding"
            case .finishing: "finishing"
            }
        }
    }

    /// The run's key: the image's cache key and the options that shape it.
    public let key: ImageLoadKey
    public let url: URL
    public let stage: Stage
    /// Whether every load sharing the run has paused it.
    public let isPaused: Bool
    /// The bytes its download received so far (0 before it downloads).
    public let received: Int64
    /// How many bytes the response said are coming; `nil` before it came, or when it
    /// did not say.
    public let expected: Int64?
    /// The loads sharing the run.
    public let loads: Int

    public init(key: ImageLoadKey, url: URL, stage: Stage, isPaused: Bool, received: Int64, expected: Int64?, loads: Int) {
        self.key = key
        self.url = url
        self.stage = stage
        self.isPaused = isPaused
        self.received = received
        self.expected = expected
        self.loads = loads
    }

    public var description: String {
        let size = expected.map { ", \(received)/\($0) bytes" } ?? (received > 0 ? ", \(received) bytes" : "")
        return "\(url.absoluteString): \(stage)\(isPaused ? " (paused)" : "")\(size), \(loads) loads"
    }
}
