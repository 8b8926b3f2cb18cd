import Foundation

/// The body of a progressive download as received so far: the partial result a
/// downloader hands its subscribers, which make partial images of it themselves (the
/// manager's decode stage does, with each load's own decode options and transforms).
///
/// Each one holds the body from its first byte, so a subscriber that joined late, or
/// skipped some while busy, loses nothing by taking only the newest. The bytes are a
/// snapshot: the download appends to its own copy.
public struct ReceivedBody: Sendable {
    /// One reference: the download's events are copied to every subscriber, and an event
    /// whose payload held the bytes inline cost twice as much to fan out.
    private final class Storage: Sendable {
        let bytes: Data
        let attempt: Int

        init(bytes: Data, attempt: Int) {
            self.bytes = bytes
            self.attempt = attempt
        }
    }

    private let storage: Storage

    /// The body from its first byte (kept bytes of a resumed download included).
    public var bytes: Data { storage.bytes }
    /// The attempt these bytes belong to, counted from 1. A retry starts the body again:
    /// a subscriber that fed an earlier attempt's bytes to a decoder starts over.
    public var attempt: Int { storage.attempt }

    public init(bytes: Data, attempt: Int) {
        storage = Storage(bytes: bytes, attempt: attempt)
    }
}
