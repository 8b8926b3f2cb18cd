import Foundation

/// The in-memory bytes giflib reads through its input callback, with a movable fence.
///
/// giflib pulls bytes with `read(gif, buffer, count)` and treats a short read as an
/// error; this object is the callback's `UserData`. While a frame decodes, a fence at
/// the end of the frame's data blocks keeps damaged LZW data from reading into the next
/// record. When the file was cut inside a frame, the fence sits after the last whole
/// block and serves one synthetic block terminator there, so that giflib finishes a
/// frame whose pixels are all present and fails cleanly on one whose pixels are not.
///
/// Not thread-safe: it belongs to the one ``GIFFile`` reading it.
final class GIFByteSource {
    /// A copy of the file: one memcpy buys plain pointer reads for the callback and for
    /// the record walks done without giflib, where `Data`'s subscript would cost more
    /// than the walk itself.
    let bytes: UnsafeRawBufferPointer
    /// Offset of the next byte giflib will read, from the start of the file.
    private(set) var position = 0
    private var fence: Int
    private var terminatorPending = false
    /// Whether a read asked for bytes past the real end of the data.
    private(set) var ranPastEnd = false

    init(_ data: Data) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
        data.copyBytes(to: copy)
        self.bytes = UnsafeRawBufferPointer(copy)
        self.fence = data.count
    }

    deinit {
        bytes.deallocate()
    }

    /// Number of bytes in the file.
    var count: Int { bytes.count }

    /// The byte at `offset` (which must be within the file).
    func byte(at offset: Int) -> UInt8 {
        bytes[offset]
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
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + position, byteCount: copied)
            position += copied
        }
        if copied == count { return copied }
        if terminatorPending {
            terminatorPending = false
            buffer[copied] = 0
            return copied + 1
        }
        if fence == bytes.count { ranPastEnd = true }
        return copied
    }

    /// Stops reads at `offset`; with `terminator`, one zero byte is served there first.
    func setFence(at offset: Int, terminator: Bool) {
        fence = offset
        terminatorPending = terminator
    }

    /// Lets reads run to the end of the data again.
    func removeFence() {
        fence = bytes.count
        terminatorPending = false
    }
}
