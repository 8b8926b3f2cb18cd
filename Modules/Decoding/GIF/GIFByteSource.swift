import Foundation
import WebImageCore

/// The in-memory bytes giflib reads through its input callback, with a movable fence.
///
/// giflib pulls bytes with `read(gif, buffer, count)` and treats a short read as an
/// error; this object is the callback's `UserData`. While a frame decodes, a fence at
/// the end of the frame's data blocks keeps damaged LZW data from reading into the next
/// record. When the file was cut inside a frame, the fence sits after the last whole
/// block and serves one synthetic block terminator there, so that giflib finishes a
/// frame whose pixels are all present and fails cleanly on one whose pixels are not.
///
/// The bytes are the caller's `Data`, not a copy: a reader, its survey and every reader
/// a frame source makes hold the one buffer the caller already has (a copy each took as
/// much memory as the file, twice at once while a decode surveyed it). Walks over the
/// records run inside ``withBytes(_:)`` on plain pointers.
///
/// Not thread-safe: it belongs to the one ``GIFFile`` reading it.
final class GIFByteSource {
    private let data: Data
    /// Number of bytes in the file.
    let count: Int
    /// Offset of the next byte giflib will read, from the start of the file.
    private(set) var position = 0
    private var fence: Int
    private var terminatorPending = false
    /// Whether a read asked for bytes past the real end of the data.
    private(set) var ranPastEnd = false

    init(_ data: Data) {
        self.data = data
        count = data.count
        fence = data.count
    }

    /// Runs `body` on the file's bytes (offsets from the start of the file).
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        try data.withBytes(body)
    }

    /// Runs `body`, which cannot throw, on the file's bytes.
    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        data.withUnsafeBytes(body)
    }

    /// Moves the read position to `offset`, past bytes walked without giflib (between
    /// records, where giflib keeps no state).
    func move(to offset: Int) {
        position = offset
    }

    /// Copies up to `count` bytes into `buffer`; returns how many it copied.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let available = max(0, fence - position)
        let copied = min(count, available)
        if copied > 0 {
            data.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + position, byteCount: copied) }
            position += copied
        }
        if copied == count { return copied }
        if terminatorPending {
            terminatorPending = false
            buffer[copied] = 0
            return copied + 1
        }
        if fence == self.count { ranPastEnd = true }
        return copied
    }

    /// Stops reads at `offset`; with `terminator`, one zero byte is served there first.
    func setFence(at offset: Int, terminator: Bool) {
        fence = offset
        terminatorPending = terminator
    }

    /// Lets reads run to the end of the data again.
    func removeFence() {
        fence = count
        terminatorPending = false
    }
}
