import Foundation

/// The body of a progressive download as received so far: the partial result a
/// downloader hands its subscribers, which make partial images of it themselves (the
/// manager's decode stage does, with each load's own decode options and transforms).
///
/// Each one holds the body from its first byte, so a subscriber that joined late, or
/// skipped some while busy, loses nothing by taking only the newest. The bytes are a
/// snapshot: the download appends to its own copy.
public struct ReceivedBody: Sendable {
    /// The body from its first byte (kept bytes of a resumed download included).
    public let bytes: Data
    /// The attempt these bytes belong to, counted from 1. A retry starts the body again:
    /// a subscriber that fed an earlier attempt's bytes to a decoder starts over.
    public let attempt: Int

    public init(bytes: Data, attempt: Int) {
        self.bytes = bytes
        self.attempt = attempt
    }
}
