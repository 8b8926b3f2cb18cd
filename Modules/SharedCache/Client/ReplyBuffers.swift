internal import CWebImageSharedCache

/// The buffers string replies are read into, recycled by size class rather than taken
/// from `malloc` and freed for every reply (`wi_reply_buffers.h` says why: in a run of
/// 50 KB hits most fresh buffers were new pages, a fifth of the client's CPU in page
/// faults). At most 16 MiB wait for reuse, 64 buffers of a class; the rest is freed.
enum ReplyBuffers {
    /// Room for `count` bytes; `nil` when out of memory. Give it back with ``release(_:)``.
    static func allocate(_ count: Int) -> UnsafeMutableRawPointer? {
        wi_reply_buffer_allocate(count)
    }

    /// Gives back a buffer from ``allocate(_:)`` or from a reply. Any thread.
    static func release(_ buffer: UnsafeMutableRawPointer?) {
        wi_reply_buffer_release(buffer)
    }

    /// The room of the buffer ``allocate(_:)`` returns for `count` bytes: its size class
    /// (from 16 KiB to 8 MiB, four per power of two), or `count` outside them.
    static func capacity(for count: Int) -> Int {
        wi_reply_buffer_capacity(count)
    }

    /// The bytes waiting for reuse.
    static var stashedBytes: Int { wi_reply_buffer_stashed_bytes() }

    /// The buffers waiting for reuse in the size class of `count` bytes.
    static func stashedCount(for count: Int) -> Int {
        Int(wi_reply_buffer_stashed_count(count))
    }

    /// Frees every buffer waiting for reuse.
    static func drain() {
        wi_reply_buffer_drain()
    }

    /// hiredis's reply functions that use these buffers, for a reader's `fn`.
    static var replyFunctions: UnsafeMutableRawPointer { wi_reply_functions() }
}
